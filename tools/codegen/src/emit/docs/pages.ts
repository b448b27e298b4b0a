/**
 * The content of every page, as document trees: the overview, the channels and methods pages (one
 * section per channel and per method; one page per group where the spec has groups), records,
 * enumerations, errors, limits, login, and the page of what the document leaves open. Each page has
 * its builder in a page-*.ts module.
 */
import type { ApiModel } from '../../model/types';
import type { Examples } from './examples';
import type { Page } from './ir';
import { channelsPage, methodsPage } from './page-api';
import { PageKit } from './page-kit';
import { overviewPage } from './page-overview';
import { errorsPage, limitsPage, loginPage, openPage } from './page-rules';
import { enumsPage, recordsPage } from './page-types';
import { hasPage, type SiteMap } from './site';

/** Every page of the site the spec has content for (hasPage), in the order of the navigation. */
export function sitePages(model: ApiModel, site: SiteMap, examples: Examples): Page[] {
  const kit = new PageKit(model, site, examples);
  return [overviewPage, channelsPage, methodsPage, recordsPage, enumsPage, errorsPage, limitsPage, loginPage, openPage]
    .flatMap((page) => page(kit))
    .filter((p) => hasPage(model, p.path));
}
