/**
 * How long a texted code works (Better Auth's OTP period, in minutes). Apart from
 * phone-factor.ts, which writes to the database and the SMS outbox, so that the
 * sign-in page's browser code can say it without taking those modules into its
 * bundle's module graph.
 */
export const PHONE_CODE_MINUTES = 5;
