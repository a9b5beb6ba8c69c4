import { isObject } from './customer';

/** Store key of a forwarded experience event: scoped by workspace, UUIDs compared lowercase. */
export function seenKey(workspaceId: string, uuid: string): string {
  return `seen:${workspaceId}:${uuid.toLowerCase()}`;
}

/** Every `svc_event_uuid` in an experience-events body (validated already). */
export function eventUuids(body: unknown): string[] {
  const uuids: string[] = [];
  if (!isObject(body) || !Array.isArray(body.elements)) return uuids;
  for (const element of body.elements) {
    if (!isObject(element) || !Array.isArray(element.actions)) continue;
    for (const action of element.actions) {
      if (isObject(action) && typeof action.svc_event_uuid === 'string') uuids.push(action.svc_event_uuid);
    }
  }
  return uuids;
}

/**
 * Drops the actions already forwarded (and elements left with none), so a re-sent batch spends
 * upstream quota only on what is new. Returns the remaining body and how many actions remain.
 */
export function withoutSeen(body: Record<string, unknown>, seen: ReadonlySet<string>): { body: Record<string, unknown>; remaining: number } {
  let remaining = 0;
  const elements: unknown[] = [];
  for (const element of body.elements as unknown[]) {
    if (!isObject(element) || !Array.isArray(element.actions)) {
      elements.push(element);
      continue;
    }
    const actions = element.actions.filter(
      (action: unknown) => !(isObject(action) && typeof action.svc_event_uuid === 'string' && seen.has(action.svc_event_uuid.toLowerCase())),
    );
    if (actions.length === 0) continue;
    remaining += actions.length;
    elements.push(actions.length === element.actions.length ? element : { ...element, actions });
  }
  return { body: { ...body, elements }, remaining };
}
