import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import GateApp from './GateApp.js';

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <GateApp />
    </StrictMode>,
  );

// The offline shell: the service worker (vite-plugin-pwa's) serves the app without a network.
if ('serviceWorker' in navigator && import.meta.env.PROD)
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/garita/sw.js', { scope: '/garita/' }).catch(() => undefined);
  });
