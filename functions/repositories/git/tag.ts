// Annotated tag objects: `object`, `type`, `tag`, `tagger` (absent from tags made before git recorded one), any other
// headers, a blank line, the message as raw bytes (a signed tag's PGP signature is the end of its message).
import { joinObject, splitObject, type Header } from './headers.ts';
import { isObjectType, isOid, type ObjectType } from './oid.ts';
import { formatSignature, parseSignature, type Signature } from './signature.ts';

export interface Tag {
  object: string;
  type: ObjectType;
  /** The tag's name as recorded in the object (normally the ref's name below refs/tags/). */
  tag: string;
  tagger?: Signature;
  /** Every header after `tagger` (or `tag`), in order. */
  headers: Header[];
  message: Uint8Array;
}

export function encodeTag(tag: Tag): Uint8Array {
  if (!isOid(tag.object)) throw new Error(`invalid object id in tag: ${JSON.stringify(tag.object)}`);
  if (!isObjectType(tag.type)) throw new Error(`invalid object type in tag: ${JSON.stringify(tag.type)}`);
  return joinObject(
    [
      ['object', tag.object],
      ['type', tag.type],
      ['tag', tag.tag],
      ...(tag.tagger ? [['tagger', formatSignature(tag.tagger)] satisfies Header] : []),
      ...tag.headers,
    ],
    tag.message,
  );
}

export function decodeTag(body: Uint8Array): Tag {
  const { headers, message } = splitObject(body, 'tag');
  const [object, type, name] = headers;
  if (object?.[0] !== 'object' || !isOid(object[1])) throw new Error('malformed tag: no object');
  if (type?.[0] !== 'type' || !isObjectType(type[1])) throw new Error('malformed tag: no type');
  if (name?.[0] !== 'tag') throw new Error('malformed tag: no tag name');
  const tagger = headers[3]?.[0] === 'tagger' ? parseSignature(headers[3][1]) : undefined;
  return {
    object: object[1],
    type: type[1],
    tag: name[1],
    ...(tagger && { tagger }),
    headers: headers.slice(tagger ? 4 : 3),
    message,
  };
}
