/** Business constants and limits of spec section 9, named, with the spec's values. */

export const APP_VERSION = 'V.1.26';
export const APPLICATION_ID = 'AP03';
export const APPLICATION_TYPE = 'WEB';

export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';

export const PASSWORD = {
  defaultMinLength: 6,
  /** The maximum is "below 100". */
  maxLength: 99,
  levels: ['B', 'I', 'A'] as const,
  defaultLevel: 'A',
  expiryWarningDays: 6,
} as const;

export const VERIFICATION_CODE = { loginDigits: 4, recoveryMinLength: 6 } as const;

export const SESSION = {
  inactivityLockSeconds: 400,
  /** Shortest screen-lock timeout a login setting may have (its schema's minimum): a lock every few seconds is no setting. */
  minimumLockSeconds: 60,
  redirectCountdownSeconds: 5,
  lockErrorBannerMs: 5000,
  reloadDelayMs: 400,
} as const;

export const GALLERY = { intervalMs: 5000, images: 4 } as const;

export const PAGE_SIZES = {
  headcount: 15,
  small: 5,
  companyAndRequest: 10,
  list: 20,
} as const;

/** Page sizes a list offers in its paginator. */
export const LIST_PAGE_SIZE_OPTIONS = [PAGE_SIZES.small, PAGE_SIZES.companyAndRequest, PAGE_SIZES.list, 50];

/** Largest page the generic list endpoint serves in one call. */
export const MAX_PAGE_SIZE = 1000;

export const MAX_PAGINATOR_PAGES = 5;

export const REQUEST_NUMBER_DIGITS = 8;
export const DEFAULT_DOCUMENT_LENGTH = 20;
export const USER_ID_MAX_LENGTH = 20;
export const OBSERVATION_MAX_LENGTH = 500;

export const PHOTO = {
  defaultMaxBytes: 5 * 1024 * 1024,
  maxKilobytes: 5000,
  defaultWidth: 150,
  defaultHeight: 160,
  /**
   * How far a photo's width and height may stray from the suggested size, as a share of it (the
   * spec's "plus or minus a ratio", whose value it does not give): 0.25 lets 150 × 160 px photos
   * be 113 to 187 px wide and 120 to 200 px high.
   */
  dimensionTolerance: 0.25,
  extensions: ['.png', '.jpg', '.jpeg'],
  /** How many extra photos a person, or photos a vehicle, may have (the spec says "several"). */
  maxPerRecord: 12,
  /** The client's parameters (System > Parameters) that set the limits: KB, width and height, MB. */
  parameters: {
    maxKilobytes: 'MAXIMAGESIZECLIENTE',
    size: 'CLIENTIMAGERATIO',
    maxMegabytes: 'SIZEMAXPHOTOUPLOAD',
  },
} as const;

export const DASHBOARD = { defaultMonths: 2, monthChoices: [2, 3, 6], maxMonths: 120 } as const;

export const HEADER_TRUNCATION = { username: 51, accreditationRole: 47, company: 38 } as const;

export const TOAST_MS = { default: 3500, wizard: 3000 } as const;
export const HTTP_RETRY = { delayMs: 2000, attempts: 3 } as const;

export const DISPLAY_DATE_TIME_FORMAT = 'dd/MM/yyyy hh:mm:ss';
export const BREAKPOINTS = { sm: 544, md: 768, lg: 1024, xl: 1200 } as const;

export const REFERENCE_CACHE_SECONDS = 86400;

/** Largest JSON body the API accepts. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
