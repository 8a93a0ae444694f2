// A form body exactly as a client wrote it (repeated names, its own percent-encoding), which the `form` option of
// helpers/app.ts (one value per name) cannot express: Rack's nested names (`actions[][action]=..`) need both.
import { appFetch, TEST_PUBLIC_URL } from './app.ts';

export async function postForm(path: string, token: string, form: string): Promise<{ status: number; body: any; text: string; headers: Headers }> {
  const res = await appFetch(`${TEST_PUBLIC_URL}/api/v4${path}`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, body, text, headers: res.headers };
}
