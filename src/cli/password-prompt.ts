/**
 * The password of `-u user` for the import and export tools: asked without echo on a terminal,
 * else read from the first line of stdin (so scripts can pipe it).
 */
import { createInterface } from 'node:readline';
import readlineSync from 'readline-sync';

export async function askPassword(user: string): Promise<string> {
  if (process.stdin.isTTY)
    return readlineSync.question(`password for ${user}: `, { hideEchoBack: true, mask: '' });
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return '';
}
