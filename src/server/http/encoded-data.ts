/**
 * A result's `data` as JSON, encoded once however many parts of the answer
 * need it: the body Yoga writes, the response cache's stored copy and the
 * ETag's hash all read the same encoding (a page's data is most of its
 * bytes: 180 KB for the top 20 with histories).
 */
import { objectSlot } from '../object-slot.js';

const encodings = objectSlot<string>('data as JSON');

export function encodedData(data: object): string {
  let json = encodings.get(data);
  if (json === undefined) {
    json = JSON.stringify(data);
    encodings.set(data, json);
  }
  return json;
}
