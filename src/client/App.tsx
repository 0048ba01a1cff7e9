import { lazy } from 'react';
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
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import { TOAST_MS } from '../shared/constants.js';
import Layout from './layout/Layout.js';
import Dashboard from './pages/Dashboard.js';
import { ErrorVariantPage, NoPermissionPage, NotFoundPage } from './pages/ErrorPages.js';
import LogoutPage from './pages/LogoutPage.js';
import LoginPage from './pages/login/LoginPage.js';
import { createAuthProvider } from './providers/auth.js';
import { type Meta, MetaContext, representation } from './providers/meta.js';
import { theme } from './theme.js';

// Screens are loaded on demand: the lists on first visit to a list, the forms on first edit.
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
const ToDashboard = () => <Navigate to="/dashboard" replace />;
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
export default function App({ meta, dataProvider, i18nProvider, store }: AppProps) {
  return (
    <MetaContext.Provider value={meta}>
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
            <Route path="/auth/login" element={<LoginPage />} />
            <Route path="/logout" element={<LogoutPage />} />
            <Route path="/error" element={<Navigate to="/error/error-v1" replace />} />
            <Route path="/error/:variant" element={<ErrorVariantPage />} />
            <Route path="/sinpermiso" element={<NoPermissionPage />} />
          </CustomRoutes>
          <CustomRoutes>
            <Route
              path="/dashboard"
              element={
                <Authenticated>
                  <Dashboard />
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
          {meta.resources.map((resource) => (
            <Resource
              key={resource.name}
              name={resource.name}
              list={ResourceList}
              show={ResourceShow}
              create={resource.access === 'write' ? ResourceCreate : undefined}
              edit={resource.access === 'write' ? ResourceEdit : undefined}
              recordRepresentation={representation(resource)}
            />
          ))}
        </Admin>
      </BrowserRouter>
    </MetaContext.Provider>
  );
}
