/** Registers every API family's routes. */
import type { NodeContext } from '../../node-context.js';
import type { Handler } from '../rest.js';
import type { Router } from '../router.js';
import { registerInfoRoutes } from './info.js';

export function registerRoutes(router: Router<Handler>, node: NodeContext): void {
  registerInfoRoutes(router, node);
}
