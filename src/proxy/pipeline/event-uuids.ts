import { isObject } from './customer';

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
 * The body with only the actions whose UUID (lowercase) is in `keep`, and elements left with
 * none dropped: what this request forwards when others already accepted, or are forwarding,
 * the rest. Returns the body and how many actions it holds.
 */
export function onlyEvents(body: Record<string, unknown>, keep: ReadonlySet<string>): { body: Record<string, unknown>; count: number } {
  let count = 0;
  const elements: unknown[] = [];
  for (const element of body.elements as unknown[]) {
    if (!isObject(element) || !Array.isArray(element.actions)) continue;
    const actions = element.actions.filter(
      (action: unknown) => isObject(action) && typeof action.svc_event_uuid === 'string' && keep.has(action.svc_event_uuid.toLowerCase()),
    );
    if (actions.length === 0) continue;
    count += actions.length;
    elements.push(actions.length === element.actions.length ? element : { ...element, actions });
  }
  return { body: { ...body, elements }, count };
}
