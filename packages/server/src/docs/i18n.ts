import { STATUS_CODES } from 'node:http';

/**
 * The locales the docs host serves, in navigation order, and every word the host writes itself:
 * its chrome and the API reference generator. The texts of the OpenAPI document (summaries,
 * descriptions) have their own table (build/openapi-texts.ts).
 */
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
  /** Titles of the sidebar's sections (build/content.ts NAV_SECTIONS). */
  sections: Record<'get-started' | 'api' | 'guides' | 'operate' | 'more', string>;
  /** The links to the page before and after this one, in navigation order. */
  previous: string;
  next: string;
  pageNavigation: string;
  /** The search box (shown by the page script only; without script the sidebar remains). */
  search: { label: string; placeholder: string; noResults: string; results: string };
  /** The copy button the page script adds to each code block. */
  copy: { label: string; done: string; failed: string };
  /** Before the per-language llms-full.txt in the llms files. */
  llmsSummary: string;
  /** The title of the language's llms-full.txt in llms.txt. */
  llmsEveryPage: string;
  callout: { note: string; tip: string; warning: string };
  notFoundTitle: string;
  notFoundText: string;
  badRequestTitle: string;
  badRequestText: string;
  /** Before the llms.txt URL in the Markdown of the error pages. */
  pageIndex: string;
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
    /** After the type of a property that is not required. */
    optional: string;
    /** `array of InventoryItem`: what goes before the item type. */
    arrayOf: string;
    /** A schema that says nothing about its type. */
    any: string;
    /** Labels of schema constraints, in the order they are listed. */
    constraints: {
      pattern: string;
      minLength: string;
      maxLength: string;
      minimum: string;
      maximum: string;
      default: string;
    };
    /** Where a parameter goes (OpenAPI `in`). */
    locations: { query: string; header: string; path: string; cookie: string };
    /** Opens a response whose description lists error codes (`Error: ITEM_NOT_FOUND`). */
    errors: string;
    /** HTTP reason phrases, for responses whose description says nothing. */
    statusPhrases: Readonly<Record<string, string | undefined>>;
  };
}

/** RFC 9110's reason phrases (and those of the other registered codes Node knows), in Spanish. */
const SPANISH_STATUS_PHRASES: Readonly<Record<string, string>> = {
  '100': 'Continuar',
  '101': 'Cambio de protocolo',
  '102': 'Procesando',
  '103': 'Indicaciones tempranas',
  '200': 'Correcto',
  '201': 'Creado',
  '202': 'Aceptado',
  '203': 'Información no autorizada',
  '204': 'Sin contenido',
  '205': 'Restablecer contenido',
  '206': 'Contenido parcial',
  '207': 'Varios estados',
  '208': 'Ya informado',
  '226': 'IM usado',
  '300': 'Varias opciones',
  '301': 'Movido permanentemente',
  '302': 'Encontrado',
  '303': 'Ver otro',
  '304': 'No modificado',
  '305': 'Usar proxy',
  '307': 'Redirección temporal',
  '308': 'Redirección permanente',
  '400': 'Petición incorrecta',
  '401': 'No autorizado',
  '402': 'Pago requerido',
  '403': 'Prohibido',
  '404': 'No encontrado',
  '405': 'Método no permitido',
  '406': 'No aceptable',
  '407': 'Autenticación de proxy requerida',
  '408': 'Tiempo de espera de la petición agotado',
  '409': 'Conflicto',
  '410': 'Ya no existe',
  '411': 'Longitud requerida',
  '412': 'Precondición fallida',
  '413': 'Contenido demasiado grande',
  '414': 'URI demasiado larga',
  '415': 'Tipo de contenido no admitido',
  '416': 'Rango no satisfacible',
  '417': 'Expectativa fallida',
  '418': 'Soy una tetera',
  '421': 'Petición mal dirigida',
  '422': 'Contenido no procesable',
  '423': 'Bloqueado',
  '424': 'Dependencia fallida',
  '425': 'Demasiado pronto',
  '426': 'Actualización requerida',
  '428': 'Precondición requerida',
  '429': 'Demasiadas peticiones',
  '431': 'Cabeceras de la petición demasiado grandes',
  '451': 'No disponible por motivos legales',
  '500': 'Error interno del servidor',
  '501': 'No implementado',
  '502': 'Puerta de enlace incorrecta',
  '503': 'Servicio no disponible',
  '504': 'Tiempo de espera de la puerta de enlace agotado',
  '505': 'Versión de HTTP no admitida',
  '506': 'La variante también negocia',
  '507': 'Almacenamiento insuficiente',
  '508': 'Bucle detectado',
  '509': 'Límite de ancho de banda superado',
  '510': 'No extendido',
  '511': 'Autenticación de red requerida',
};

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
    sections: {
      'get-started': 'Get started',
      api: 'API',
      guides: 'Guides',
      operate: 'Operate',
      more: 'More',
    },
    previous: 'Previous',
    next: 'Next',
    pageNavigation: 'Previous and next page',
    search: {
      label: 'Search the docs',
      placeholder: 'Search…',
      noResults: 'No page matches.',
      results: 'Results',
    },
    copy: { label: 'Copy', done: 'Copied', failed: 'Copy failed' },
    llmsSummary:
      'Stockroom is a self-hosted public HTTP API for inventory data: an organization exposes its inventory items and organization summary to external integrations, authenticated with organization or user API keys. This file holds every page of the English documentation as Markdown.',
    llmsEveryPage: 'every page in one file',
    callout: { note: 'Note', tip: 'Tip', warning: 'Warning' },
    notFoundTitle: 'Page not found',
    notFoundText: 'There is no documentation page at this address.',
    badRequestTitle: 'Bad request',
    badRequestText:
      'This address is not a valid URL: every % in it must start a percent-encoded UTF-8 character, such as %20.',
    pageIndex: 'Every page is listed in',
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
      optional: '(optional)',
      arrayOf: 'array of',
      any: 'any',
      constraints: {
        pattern: 'pattern',
        minLength: 'minLength',
        maxLength: 'maxLength',
        minimum: 'minimum',
        maximum: 'maximum',
        default: 'default',
      },
      locations: { query: 'query', header: 'header', path: 'path', cookie: 'cookie' },
      errors: 'Error',
      statusPhrases: STATUS_CODES,
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
    sections: {
      'get-started': 'Primeros pasos',
      api: 'API',
      guides: 'Guías',
      operate: 'Operación',
      more: 'Más',
    },
    previous: 'Anterior',
    next: 'Siguiente',
    pageNavigation: 'Página anterior y siguiente',
    search: {
      label: 'Buscar en la documentación',
      placeholder: 'Buscar…',
      noResults: 'Ninguna página coincide.',
      results: 'Resultados',
    },
    copy: { label: 'Copiar', done: 'Copiado', failed: 'No se pudo copiar' },
    llmsSummary:
      'Stockroom es una API HTTP pública y autoalojada para datos de inventario: una organización expone sus artículos de inventario y el resumen de la organización a integraciones externas, que se autentican con claves de API de organización o de usuario. Este archivo reúne en Markdown todas las páginas de la documentación en español.',
    llmsEveryPage: 'todas las páginas en un solo archivo',
    callout: { note: 'Nota', tip: 'Consejo', warning: 'Advertencia' },
    notFoundTitle: 'Página no encontrada',
    notFoundText: 'No hay ninguna página de documentación en esta dirección.',
    badRequestTitle: 'Petición incorrecta',
    badRequestText:
      'Esta dirección no es una URL válida: cada % debe empezar un carácter UTF-8 codificado con porcentajes, como %20.',
    pageIndex: 'Todas las páginas aparecen en',
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
      optional: '(opcional)',
      arrayOf: 'array de',
      any: 'cualquiera',
      constraints: {
        pattern: 'patrón',
        minLength: 'longitud mínima',
        maxLength: 'longitud máxima',
        minimum: 'mínimo',
        maximum: 'máximo',
        default: 'valor por defecto',
      },
      locations: { query: 'consulta', header: 'cabecera', path: 'ruta', cookie: 'cookie' },
      errors: 'Error',
      statusPhrases: SPANISH_STATUS_PHRASES,
    },
  },
};
