// Bearer tokens issued by POST /auth/login: HS256 JWTs valid for one hour.
import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { AuthenticationError } from '../../errors.js';

export const localIssuer = 'urn:groundcheck:local';
const audience = 'urn:groundcheck:api';
export const tokenLifetimeSeconds = 3600;

export interface LocalTokenClaims {
  userId: string;
  customerId: string;
  expiresAt: Date;
  /** The user's session epoch when the token was issued (see `UserRecord.session_epoch`). */
  sessionEpoch: number;
}

export class LocalTokens {
  private readonly key: Uint8Array;

  /** Without a configured secret, tokens are signed with a key that lives as long as the process. */
  constructor(secret: string | null) {
    this.key = secret ? new TextEncoder().encode(secret) : randomBytes(32);
  }

  async issue(userId: string, customerId: string, sessionEpoch: number, now: Date): Promise<{ token: string; expiresAt: Date }> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const token = await new SignJWT({ cid: customerId, sep: sessionEpoch })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(localIssuer)
      .setAudience(audience)
      .setSubject(userId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + tokenLifetimeSeconds)
      .sign(this.key);
    return { token, expiresAt: new Date((issuedAt + tokenLifetimeSeconds) * 1000) };
  }

  async verify(token: string, now: Date): Promise<LocalTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: localIssuer, audience, algorithms: ['HS256'], currentDate: now });
      if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string' || typeof payload.exp !== 'number') {
        throw new AuthenticationError('invalid_token', 'The bearer token is missing required claims.');
      }
      const sessionEpoch = typeof payload.sep === 'number' ? payload.sep : 0;
      return { userId: payload.sub, customerId: payload.cid, expiresAt: new Date(payload.exp * 1000), sessionEpoch };
    } catch (error) {
      throw tokenError(error);
    }
  }
}

export function tokenError(error: unknown): AuthenticationError {
  if (error instanceof AuthenticationError) return error;
  if (error instanceof errors.JWTExpired) return new AuthenticationError('token_expired', 'The bearer token has expired; sign in again.');
  return new AuthenticationError('invalid_token', 'The bearer token is not valid.');
}
