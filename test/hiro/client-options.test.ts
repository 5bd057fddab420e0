import { describe, expect, it } from 'vitest';
import { createHiroClient, HiroConfigError } from '../../lambda/hiro';

describe('client options', () => {
  it('refuses an http:// base URL for a remote host, since the key would travel in clear', () => {
    expect(() => createHiroClient({ baseUrl: 'http://api.hiro.so' })).toThrow(HiroConfigError);
    expect(() => createHiroClient({ baseUrl: 'http://api.hiro.so' })).toThrow(/use https:\/\//);
  });

  it.each(['http://localhost:3999', 'http://127.0.0.1:3999', 'http://127.8.9.10', 'http://[::1]:3999'])(
    'accepts http:// for the loopback host %s',
    (baseUrl) => {
      expect(() => createHiroClient({ baseUrl })).not.toThrow();
    },
  );

  it('refuses a base URL that is not a URL, naming it', () => {
    expect(() => createHiroClient({ baseUrl: 'api.hiro.so' })).toThrow(/"api\.hiro\.so" is not a URL/);
  });

  it('refuses credentials in the base URL', () => {
    expect(() => createHiroClient({ baseUrl: 'https://user:secret@api.hiro.so' })).toThrow(/must not carry credentials/);
  });

  it.each([
    'https://user:hunter2@[bad',
    'https://user:hunter2@exa mple.com',
    'ftp://user:hunter2@host',
    // A password written unencoded with a character that ends the authority, or a second @.
    'https://user:hun#ter2@api.example.com',
    'https://user:hun/ter2@api.example.com',
    'https://user:hun?ter2@api.example.com',
    'https://user:hun@ter2@api.example.com',
  ])('never echoes the password of a base URL it refuses (%s)', (baseUrl) => {
    let message = '';
    try {
      createHiroClient({ baseUrl });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/not a URL|credentials/);
    expect(message).not.toMatch(/hun.?ter2|ter2/);
  });

  it.each([
    ['requestsPerMinute', { requestsPerMinute: 0 }],
    ['concurrency', { concurrency: 1.5 }],
    ['timeoutMs', { timeoutMs: -1 }],
    ['maxRetries', { maxRetries: -1 }],
  ])('refuses an impossible %s, naming the option', (name, options) => {
    expect(() => createHiroClient(options)).toThrow(new RegExp(`option ${name} must be`));
  });

  it('keeps a base URL path prefix (a proxy) in front of the API paths', async () => {
    const urls: string[] = [];
    const client = createHiroClient({
      baseUrl: 'https://proxy.example.com/hiro',
      fetch: async (input) => {
        urls.push(String(input));
        return new Response(JSON.stringify({ status: 'ready' }), { status: 200 });
      },
    });

    await client.getTip();

    expect(urls).toEqual(['https://proxy.example.com/hiro/extended']);
  });
});
