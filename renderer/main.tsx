import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App.js';
import { applyTheme, rememberedTheme } from './theme.js';
import './styles.css';

// Before the first paint, so a dark-theme user never sees a white flash.
applyTheme(rememberedTheme());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
