/** The signup field's words, shared by the form and the placeholder drawn before it loads. */
export const signupText = { label: 'Get updates by email', placeholder: 'you@example.com' } as const;
