// Every screen of the app, gathered from the areas that own them. The shell matches the hash
// path against these patterns in order.

import type { Route } from './route';
import { accountRoutes } from './pages/account/routes';
import { connectionsRoutes } from './pages/connections/routes';
import { portfolioRoutes } from './pages/portfolio/routes';
import { funnelRoutes } from './pages/funnel/routes';
import { queueRoutes } from './pages/queue/routes';
import { dashboardsRoutes } from './pages/dashboards/routes';
import { healthRoutes } from './pages/health/routes';
import { growthRoutes } from './pages/growth/routes';
import { demandRoutes } from './pages/demand/routes';
import { socialRoutes } from './pages/social/routes';
import { pagesRoutes } from './pages/pages/routes';
import { recordingsRoutes } from './pages/recordings/routes';
import { scorecardRoutes } from './pages/scorecard/routes';
import { billingRoutes } from './pages/billing/routes';

export const routes: Route[] = [...accountRoutes, ...portfolioRoutes, ...funnelRoutes, ...queueRoutes, ...connectionsRoutes, ...dashboardsRoutes, ...healthRoutes, ...growthRoutes, ...demandRoutes, ...socialRoutes, ...pagesRoutes, ...recordingsRoutes, ...scorecardRoutes, ...billingRoutes];
