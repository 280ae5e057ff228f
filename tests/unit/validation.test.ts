import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { messages } from '../../shared/messages';
import {
  loginSchema,
  newPasswordFormSchema,
  passwordResetSchema,
  registerSchema,
  signUpFormSchema,
  verifyEmailSchema,
} from '../../shared/schemas/accounts';
import {
  emailField,
  exactText,
  newPasswordField,
  optionalText,
  optionalUrl,
  pageParam,
  requiredText,
  searchTermParam,
} from '../../shared/schemas/text';

/** The messages a value produces, keyed by field path ('' for the value itself). */
function errorsOf(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) (errors[issue.path.join('.')] ??= []).push(issue.message);
  return errors;
}

const firstError = (schema: z.ZodType, value: unknown) => Object.values(errorsOf(schema, value))[0]?.[0];

describe('shared text rules (spec part 1 section 5)', () => {
  it('says "{Field} is required." for missing, empty and blank text', () => {
    const name = requiredText('Name', 100);
    expect(firstError(name, undefined)).toBe('Name is required.');
    expect(firstError(name, '')).toBe('Name is required.');
    expect(firstError(name, '   ')).toBe('Name is required.');
  });

  it('trims required text', () => {
    expect(requiredText('Name', 100).parse('  Jazz  ')).toBe('Jazz');
  });

  it('says "{Field} cannot exceed {n} character(s)." past the maximum, counting after trimming', () => {
    const name = requiredText('Name', 100);
    expect(firstError(name, 'a'.repeat(101))).toBe('Name cannot exceed 100 character(s).');
    expect(name.safeParse(` ${'a'.repeat(100)} `).success).toBe(true);
    expect(firstError(optionalText('Description', 3000), 'x'.repeat(3001))).toBe(
      'Description cannot exceed 3000 character(s).',
    );
  });

  it('says "{Field} must have exactly {n} character(s)." when min equals max', () => {
    expect(firstError(exactText('Verification code', 6), '12345')).toBe(
      'Verification code must have exactly 6 character(s).',
    );
    expect(firstError(exactText('Verification code', 6), '1234567')).toBe(
      'Verification code must have exactly 6 character(s).',
    );
  });

  it('reads a missing optional text as empty', () => {
    expect(optionalText('Website', 400).parse(undefined)).toBe('');
  });
});

describe('email', () => {
  it('is required, valid and at most 100 characters', () => {
    expect(firstError(emailField, '')).toBe('Email is required.');
    expect(firstError(emailField, 'not-an-email')).toBe('Please enter a valid email.');
    expect(firstError(emailField, `${'a'.repeat(95)}@b.com`)).toBe('Email cannot exceed 100 character(s).');
  });

  it('is trimmed and lower-cased so one address is one account', () => {
    expect(emailField.parse('  Fan@Example.ORG ')).toBe('fan@example.org');
  });
});

describe('URL', () => {
  const website = optionalUrl('Website');

  it('must start with http:// or https://', () => {
    expect(firstError(website, 'www.example.org')).toBe('URL must start with either http:// or https://');
    expect(firstError(website, 'ftp://example.org')).toBe('URL must start with either http:// or https://');
  });

  it('must be a valid url', () => {
    expect(firstError(website, 'https://')).toBe('Please enter a valid url.');
    expect(firstError(website, 'https://no spaces.org')).toBe('Please enter a valid url.');
  });

  it('is at most 400 characters', () => {
    expect(firstError(website, `https://example.org/${'a'.repeat(400)}`)).toBe(
      'Website cannot exceed 400 character(s).',
    );
  });

  it('may be empty where optional', () => {
    expect(website.parse('')).toBe('');
    expect(website.parse(undefined)).toBe('');
    expect(website.parse('https://example.org/band')).toBe('https://example.org/band');
  });
});

describe('password', () => {
  it.each([
    ['', 'Password is required.'],
    ['Ab1!', 'Must contain at least 8 characters.'],
    [`Ab1!${'a'.repeat(147)}`, 'Must not exceed 150 characters.'],
    ['ABCDEFG1!', 'Must contain at least one lowercase letter.'],
    ['abcdefg1!', 'Must contain at least one uppercase letter.'],
    ['Abcdefgh!', 'Must contain at least one number.'],
    ['Abcdefgh1', 'Must contain at least one symbol.'],
  ])('%j → %s', (password, message) => {
    expect(firstError(newPasswordField, password)).toBe(message);
  });

  it('accepts a password meeting every rule', () => {
    expect(newPasswordField.safeParse('Str0ng!pass').success).toBe(true);
  });

  it('has the hint of the spec', () => {
    expect(messages.passwordHint).toBe('At least 8 characters, 1 lowercase, 1 uppercase, 1 number, 1 symbol.');
  });

  it('puts "Passwords don\'t match!" on the confirm field', () => {
    expect(errorsOf(newPasswordFormSchema, { password: 'Str0ng!pass', confirmPassword: 'Other!pass1' })).toEqual({
      confirmPassword: ["Passwords don't match!"],
    });
    expect(newPasswordFormSchema.safeParse({ password: 'Str0ng!pass', confirmPassword: 'Str0ng!pass' }).success).toBe(
      true,
    );
  });
});

describe('sign-up', () => {
  it('requires all five fields with their labels', () => {
    expect(errorsOf(signUpFormSchema, {})).toEqual({
      firstName: ['First name is required.'],
      lastName: ['Last name is required.'],
      email: ['Email is required.'],
      password: ['Password is required.'],
      confirmPassword: [expect.any(String)],
    });
  });

  it('caps first and last name at 100', () => {
    const errors = errorsOf(registerSchema, {
      firstName: 'a'.repeat(101),
      lastName: 'b'.repeat(101),
      email: 'fan@example.org',
      password: 'Str0ng!pass',
    });
    expect(errors).toEqual({
      firstName: ['First name cannot exceed 100 character(s).'],
      lastName: ['Last name cannot exceed 100 character(s).'],
    });
  });
});

describe('login', () => {
  it('needs a valid email and a password of at most 150', () => {
    expect(errorsOf(loginSchema, { email: 'nope', password: '' })).toEqual({
      email: ['Please enter a valid email.'],
      password: ['Password is required.'],
    });
    expect(firstError(loginSchema, { email: 'fan@example.org', password: 'a'.repeat(151) })).toBe(
      'Must not exceed 150 characters.',
    );
  });

  it('does not apply the new-password rules to existing passwords', () => {
    expect(loginSchema.safeParse({ email: 'fan@example.org', password: 'short' }).success).toBe(true);
  });
});

describe('verification code and reset token', () => {
  it('requires exactly 6 characters', () => {
    expect(firstError(verifyEmailSchema, { verificationCode: '' })).toBe('Verification code is required.');
    expect(firstError(verifyEmailSchema, { verificationCode: '12345' })).toBe(
      'Verification code must have exactly 6 character(s).',
    );
    expect(verifyEmailSchema.parse({ verificationCode: ' 123456 ' })).toEqual({ verificationCode: '123456' });
  });

  it('caps the reset token at 200', () => {
    expect(firstError(passwordResetSchema, { password: 'Str0ng!pass', resetToken: 'x'.repeat(201) })).toBe(
      'Reset token cannot exceed 200 character(s).',
    );
  });
});

describe('search and paging', () => {
  it('caps the search term at 800', () => {
    expect(firstError(searchTermParam, 'a'.repeat(801))).toBe('Search term cannot exceed 800 character(s).');
    expect(searchTermParam.parse(undefined)).toBe('');
  });

  it.each([
    ['3', 3],
    ['0', 0],
    ['abc', 0],
    ['-2', 0],
    ['1.5', 0],
    [undefined, 0],
  ])('page %j reads as %d', (value, page) => {
    expect(pageParam.parse(value)).toBe(page);
  });
});

describe('length messages (spec part 1 section 5, word for word)', () => {
  it("say 'character(s)' whatever the number, as the spec's templates do", () => {
    expect(messages.max('Name', 1)).toBe('Name cannot exceed 1 character(s).');
    expect(messages.max('Name', 75)).toBe('Name cannot exceed 75 character(s).');
    expect(messages.min('Name', 1)).toBe('Name must have at least 1 character(s).');
    expect(messages.exactly('Verification code', 6)).toBe('Verification code must have exactly 6 character(s).');
    expect(firstError(requiredText('Track name', 1), 'ab')).toBe('Track name cannot exceed 1 character(s).');
  });
});

describe('the sign-up form', () => {
  it('flags every empty field, Confirm password included', () => {
    const errors = errorsOf(signUpFormSchema, {
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      confirmPassword: '',
    });
    expect(Object.keys(errors).sort()).toEqual(['confirmPassword', 'email', 'firstName', 'lastName', 'password']);
    expect(errors.confirmPassword).toEqual(['Confirm password is required.']);
  });

  it('says the passwords differ as soon as both are typed, whatever else is missing', () => {
    const errors = errorsOf(signUpFormSchema, {
      firstName: '',
      lastName: '',
      email: '',
      password: 'Str0ng!pass',
      confirmPassword: 'Str0ng!pas',
    });
    expect(errors.confirmPassword).toEqual(["Passwords don't match!"]);
  });
});
