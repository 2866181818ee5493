// A module of its own, so the CLI checks a password without loading the DTOs (Swagger, class-validator).
export const PASSWORD_MIN = 8;
/** Longest accepted password: long passphrases fit, megabyte bodies never reach argon2. */
export const PASSWORD_MAX = 256;
