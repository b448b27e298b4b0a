/**
 * Links to the login page from the channel and method sections: a spec that describes no login has no
 * such page (site.ts, hasPage), and then the words stand alone rather than link nowhere.
 */
import { link, type Inline } from './ir';
import type { PageKit } from './page-kit';
import { PAGES, hasPage } from './site';

/** `login`, a link to the login page where the spec describes one. */
export const loginLink = (kit: PageKit): Inline =>
  hasPage(kit.model, PAGES.login) ? link({ page: PAGES.login }, 'login') : 'login';

/** `action signature`, a link to its section of the login page where the spec describes one. */
export const signatureLink = (kit: PageKit): Inline =>
  hasPage(kit.model, PAGES.login)
    ? link({ page: PAGES.login, anchor: 'action-signature' }, 'action signature')
    : 'action signature';
