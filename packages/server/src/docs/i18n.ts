/** The locales the docs host serves, in navigation order, and the words its chrome uses. */
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

export interface Strings {
  languageName: string;
  siteName: string;
  docs: string;
  skipToContent: string;
  pages: string;
  onThisPage: string;
  languageSwitch: string;
  viewMarkdown: string;
  linkToSection: string;
  callout: { note: string; tip: string; warning: string };
  notFoundTitle: string;
  notFoundText: string;
  backToIntroduction: string;
  api: {
    baseUrl: string;
    authentication: string;
    noAuthentication: string;
    apiKey: string;
    parameters: string;
    noParameters: string;
    responses: string;
    name: string;
    in: string;
    required: string;
    type: string;
    description: string;
    status: string;
    fields: string;
    yes: string;
    no: string;
    schemas: string;
    unavailable: string;
  };
}

export const STRINGS: Record<Locale, Strings> = {
  en: {
    languageName: 'English',
    siteName: 'Stockroom',
    docs: 'docs',
    skipToContent: 'Skip to content',
    pages: 'Pages',
    onThisPage: 'On this page',
    languageSwitch: 'Language',
    viewMarkdown: 'This page as Markdown',
    linkToSection: 'Link to this section',
    callout: { note: 'Note', tip: 'Tip', warning: 'Warning' },
    notFoundTitle: 'Page not found',
    notFoundText: 'There is no documentation page at this address.',
    backToIntroduction: 'Go to the introduction',
    api: {
      baseUrl: 'Base URL',
      authentication: 'Authentication',
      noAuthentication: 'none',
      apiKey: 'API key (`x-api-key` or `Authorization: Bearer`)',
      parameters: 'Parameters',
      noParameters: 'No parameters.',
      responses: 'Responses',
      name: 'Name',
      in: 'In',
      required: 'Required',
      type: 'Type',
      description: 'Description',
      status: 'Status',
      fields: 'Fields',
      yes: 'yes',
      no: 'no',
      schemas: 'Schemas',
      unavailable: 'The OpenAPI document is not available right now; reload the page in a moment.',
    },
  },
  es: {
    languageName: 'Español',
    siteName: 'Stockroom',
    docs: 'documentación',
    skipToContent: 'Saltar al contenido',
    pages: 'Páginas',
    onThisPage: 'En esta página',
    languageSwitch: 'Idioma',
    viewMarkdown: 'Esta página en Markdown',
    linkToSection: 'Enlace a esta sección',
    callout: { note: 'Nota', tip: 'Consejo', warning: 'Advertencia' },
    notFoundTitle: 'Página no encontrada',
    notFoundText: 'No hay ninguna página de documentación en esta dirección.',
    backToIntroduction: 'Ir a la introducción',
    api: {
      baseUrl: 'URL base',
      authentication: 'Autenticación',
      noAuthentication: 'ninguna',
      apiKey: 'clave de API (`x-api-key` o `Authorization: Bearer`)',
      parameters: 'Parámetros',
      noParameters: 'Sin parámetros.',
      responses: 'Respuestas',
      name: 'Nombre',
      in: 'En',
      required: 'Obligatorio',
      type: 'Tipo',
      description: 'Descripción',
      status: 'Estado',
      fields: 'Campos',
      yes: 'sí',
      no: 'no',
      schemas: 'Esquemas',
      unavailable:
        'El documento OpenAPI no está disponible en este momento; vuelve a cargar la página en unos instantes.',
    },
  },
};
