/** The market's rates (the sandbox-market assumption): fees and margins in basis points of the notional. */

/** Fee of the side that takes liquidity. */
export const TAKER_FEE_BPS = 3;
/** Fee of the side whose order rested. */
export const MAKER_FEE_BPS = 1;
/** Initial margin of perp and option exposure: 10 %, so collateral carries ten times its value. */
export const INITIAL_MARGIN_BPS = 1000;
/** Maintenance margin of perp and option exposure. */
export const MAINTENANCE_MARGIN_BPS = 500;
/** The hourly funding rate of every perp, as the ticker (`f`) and the funding history report it. */
export const FUNDING_RATE_PER_HOUR = '0.00001';
/**
 * Every subaccount is standard-margined under one manager in one risk universe: the ids the portfolio
 * reads and the funding history name (the venue numbers its managers and universes; one of each is enough here).
 */
export const STANDARD_MANAGER_ID = 1;
export const RISK_UNIVERSE_ID = 1;
