import type { Request } from 'express';
import type { AppConfig } from '../config/config';

/** The instance's public origin: APP_URL when set (behind proxies), else what the request was sent to. */
export const publicOrigin = (req: Request, config: Pick<AppConfig, 'appUrl'>): string =>
  config.appUrl ?? `${req.protocol}://${req.get('host')}`;

export const callbackUrl = (origin: string, providerName: string): string => `${origin}/auth/${providerName}/callback`;
export const loginUrl = (origin: string, providerName: string): string => `${origin}/auth/${providerName}`;
