import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import {
  Admin,
  Authenticated,
  CustomRoutes,
  type DataProvider,
  type I18nProvider,
  Notification,
  Resource,
  type Store,
} from 'react-admin';
import { BrowserRouter, Navigate, Route, useLocation } from 'react-router-dom';
import { TOAST_MS } from '../shared/constants.js';
import type { ProfileType } from '../shared/session.js';
import { theme } from './consoleTheme.js';
import {
  dashboardFor,
  FEATURE_ROUTES,
  LIST_ACTIONS,
  PUBLIC_FEATURE_ROUTES,
  RECORD_ACTIONS,
  RECORD_PANELS,
  SLOTS,
} from './features/index.js';
import Layout from './layout/Layout.js';
import Dashboard from './pages/Dashboard.js';
import { ErrorVariantPage, NoPermissionPage, NotFoundPage } from './pages/ErrorPages.js';
import LogoutPage from './pages/LogoutPage.js';
import { DASHBOARD_PATH, LOGIN_PATH, NO_PERMISSION_PATH } from './paths.js';
import { createAuthProvider } from './providers/auth.js';
import { ExtensionsContext } from './providers/extensions.js';
import { isScreen, type Meta, MetaContext, representation, useMeta } from './providers/meta.js';
import { session } from './session/store.js';

// Screens are loaded on demand: the lists on first visit to a list, the forms on first edit.
const ManualsPage = lazy(() => import('./manuals/ManualsPage.js'));
const ResourceList = lazy(() => import('./resources/ResourceList.js'));
const ResourceShow = lazy(() => import('./resources/ResourceShow.js'));
const ResourceCreate = lazy(() => import('./resources/ResourceCreate.js'));
const ResourceEdit = lazy(() => import('./resources/ResourceEdit.js'));
const SecurityPage = lazy(() => import('./pages/SecurityPage.js'));

interface AppProps {
  meta: Meta;
  dataProvider: DataProvider;
  i18nProvider: I18nProvider;
  store: Store;
}

const Toasts = () => <Notification autoHideDuration={TOAST_MS.default} />;
const ToDashboard = () => <Navigate to={DASHBOARD_PATH} replace />;
/**
 * The sign-in page lives outside the console: once the session is gone, a full load shows it on
 * its own; a signed-in user has nothing to do there.
 */
function ToLogin() {
  const signedIn = session.signedIn();
  useEffect(() => {
    if (!signedIn) window.location.replace(LOGIN_PATH);
  }, [signedIn]);
  return signedIn ? <ToDashboard /> : null;
}
/** The 404 inside the shell for a signed-in user; the login page for anybody else. */
const CatchAll = () => (
  <Authenticated>
    <NotFoundPage />
  </Authenticated>
);

/**
 * The console: the shell's routes of spec section 2 (login, logout, dashboard, security page,
 * error pages) and one resource per entity the profile reaches, each with the access it has.
 */
const EXTENSIONS = {
  recordActions: RECORD_ACTIONS,
  listActions: LIST_ACTIONS,
  recordPanels: RECORD_PANELS,
  slots: SLOTS,
};

/** A resource's address outside the profile's menu (it only lends its labels): the no-permission page, not a blank one. */
const OutOfMenu = () => <Navigate to={NO_PERMISSION_PATH} replace />;

/**
 * A feature's screen only for a profile whose menu holds it (its route, or a record under it): typed
 * by another, the address leads to the no-permission page, as a refused call does, rather than to a
 * screen whose every call is refused.
 */
function InMenu({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { routes } = useMeta();
  const held = routes.some((route) => pathname === route || pathname.startsWith(`${route}/`));
  return held ? children : <Navigate to={NO_PERMISSION_PATH} replace />;
}

export default function App({ meta, dataProvider, i18nProvider, store }: AppProps) {
  // The profile type's own dashboard (requester, authoriser), or the figures and screens.
  const Home = dashboardFor(meta.context.profileType as ProfileType | undefined) ?? Dashboard;
  return (
    <MetaContext.Provider value={meta}>
      <ExtensionsContext.Provider value={EXTENSIONS}>
        <BrowserRouter>
          <Admin
            title="Acreditación"
            dataProvider={dataProvider}
            authProvider={createAuthProvider(meta)}
            i18nProvider={i18nProvider}
            store={store}
            layout={Layout}
            loginPage={false}
            catchAll={CatchAll}
            notification={Toasts}
            theme={theme}
            disableTelemetry
          >
            <CustomRoutes noLayout>
              <Route path="/" element={<ToDashboard />} />
              <Route path="/auth" element={<Navigate to="/auth/login" replace />} />
              <Route path={LOGIN_PATH} element={<ToLogin />} />
              <Route path="/logout" element={<LogoutPage />} />
              <Route path="/error" element={<Navigate to="/error/error-v1" replace />} />
              <Route path="/error/:variant" element={<ErrorVariantPage />} />
              <Route path="/sinpermiso" element={<NoPermissionPage />} />
              {PUBLIC_FEATURE_ROUTES.map(({ path, Component }) => (
                <Route
                  key={path}
                  path={path}
                  element={
                    <Suspense fallback={null}>
                      <Component />
                    </Suspense>
                  }
                />
              ))}
            </CustomRoutes>
            <CustomRoutes>
              <Route
                path="/dashboard"
                element={
                  <Authenticated>
                    <Home />
                  </Authenticated>
                }
              />
              {FEATURE_ROUTES.map(({ path, Component, beyondMenu }) => (
                <Route
                  key={path}
                  path={path}
                  element={
                    <Authenticated>
                      {beyondMenu ? (
                        <Component />
                      ) : (
                        <InMenu>
                          <Component />
                        </InMenu>
                      )}
                    </Authenticated>
                  }
                />
              ))}
              <Route
                path="/manuales/:guide?"
                element={
                  <Authenticated>
                    <Suspense fallback={null}>
                      <ManualsPage />
                    </Suspense>
                  </Authenticated>
                }
              />
              <Route
                path="/seguridad/usuarioLogin"
                element={
                  <Authenticated>
                    <SecurityPage />
                  </Authenticated>
                }
              />
            </CustomRoutes>
            {/* Screens for the resources of the profile's menu; the others only lend their labels. */}
            {meta.resources.map((resource) =>
              isScreen(meta, resource.name) ? (
                <Resource
                  key={resource.name}
                  name={resource.name}
                  list={ResourceList}
                  show={ResourceShow}
                  create={resource.access === 'write' ? ResourceCreate : undefined}
                  edit={resource.access === 'write' ? ResourceEdit : undefined}
                  recordRepresentation={representation(resource)}
                />
              ) : (
                <Resource
                  key={resource.name}
                  name={resource.name}
                  list={OutOfMenu}
                  recordRepresentation={representation(resource)}
                />
              ),
            )}
          </Admin>
        </BrowserRouter>
      </ExtensionsContext.Provider>
    </MetaContext.Provider>
  );
}
