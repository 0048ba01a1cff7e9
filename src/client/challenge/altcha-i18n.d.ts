/** The widget's Latin-American Spanish ships without its declaration (English has one). */
declare module 'altcha/i18n/es-419';
