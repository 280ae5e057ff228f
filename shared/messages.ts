// The exact validation texts of spec part 1 section 5, written once and used by client forms and
// server routes alike. The length messages are the spec's templates word for word, '(s)' included:
// '{Field} cannot exceed {n} character(s).'

export const messages = {
  required: (label: string) => `${label} is required.`,
  max: (label: string, n: number) => `${label} cannot exceed ${n} character(s).`,
  min: (label: string, n: number) => `${label} must have at least ${n} character(s).`,
  exactly: (label: string, n: number) => `${label} must have exactly ${n} character(s).`,
  email: 'Please enter a valid email.',
  urlScheme: 'URL must start with either http:// or https://',
  url: 'Please enter a valid url.',
  passwordMin: 'Must contain at least 8 characters.',
  passwordMax: 'Must not exceed 150 characters.',
  passwordSymbol: 'Must contain at least one symbol.',
  passwordUppercase: 'Must contain at least one uppercase letter.',
  passwordLowercase: 'Must contain at least one lowercase letter.',
  passwordNumber: 'Must contain at least one number.',
  passwordHint: 'At least 8 characters, 1 lowercase, 1 uppercase, 1 number, 1 symbol.',
  passwordsDontMatch: "Passwords don't match!",
  /** Ours (issue 9): a password from the lists attackers try first, checked by the server. */
  passwordCommon: 'This password is one of the most common ones, which are guessed first. Please choose another.',
  genre: 'Please select one of the options.',
  moneyNegative: (label: string) => `${label} cannot be negative`,
  moneyMin: (label: string, dollars: string) => `${label} must be at least $${dollars}`,
  moneyMax: (label: string, dollars: string) => `${label} cannot exceed $${dollars}`,
  maxHint: (n: number) => `Maximum ${n} characters`,
  unexpectedData: 'Unexpected data returned from the server. Please contact the provider if the problem persists.',
  generic: 'Sorry, something went wrong. Please try again later.',
  /** Ours (issue 25): SQLite stayed locked past its busy timeout; the request changed nothing. */
  busy: 'The site is busy just now. Please try again in a moment.',
  /** Ours (issue 25): the media bucket did not take a file; nothing was saved. */
  storageUnavailable: 'The file could not be stored just now. Please try again in a moment.',
} as const;
