/**
 * The live feed's event target for the workers of one machine without
 * Redis: an announcement goes to the primary, which relays it to every
 * worker, this one included, so the one worker that polled feeds the
 * subscribers of all of them, each exactly once (as Redis pub/sub does for
 * replicas).
 */
import { setMaxListeners } from 'node:events';
import type { PrimaryLink } from '../machine/primary-link.js';

/** Thousands of subscribers each listen for milestones: Node's warning of more than ten listeners is no leak here. */
export function manyListeners(target: EventTarget): EventTarget {
  setMaxListeners(0, target);
  return target;
}

export function machineEventTarget(primary: PrimaryLink): EventTarget {
  const local = manyListeners(new EventTarget());
  primary.onPublished((topic, data) =>
    local.dispatchEvent(new CustomEvent(topic, { detail: data })),
  );
  return {
    addEventListener: local.addEventListener.bind(local),
    removeEventListener: local.removeEventListener.bind(local),
    dispatchEvent(event: Event) {
      primary.publish(event.type, (event as CustomEvent).detail);
      return true;
    },
  };
}
