/**
 * Templates as the API returns them (`GET /api/v1/message-templates`): components in the network's create
 * shape with upper-case `type` values. Every shape is derived from the generated OpenAPI types, never written
 * by hand: a field the service renames or drops fails `npm run typecheck`.
 */

import { isPositionalName, variableNames as namesOf } from '../../../../src/domain/templates/placeholders.js';
import { MEDIA_HEADER_FORMATS } from '../../../../src/domain/templates/types.js';
import type { components, paths } from '../../generated/api.js';

/** The key names of every member of a union. */
type KeysOf<U> = U extends unknown ? keyof U : never;
/** The type of `K` across the members of a union that have it. */
type ValueOf<U, K extends PropertyKey> = U extends unknown ? (K extends keyof U ? U[K] : never) : never;
type Scalar = string | number | boolean | null | undefined;
/** `Flat` applied through arrays and nested objects; scalars stay. */
type Deep<T> =
  | (T extends readonly (infer E)[] ? Deep<E>[] : never)
  | ([Exclude<T, readonly unknown[] | Scalar>] extends [never] ? never : Flat<Exclude<T, readonly unknown[] | Scalar>>)
  | Extract<T, Scalar>;
/** The keys every member of a union has, and never as undefined. */
type RequiredKeys<U, C extends PropertyKey = keyof U> = { [K in C]-?: undefined extends ValueOf<U, K> ? never : K }[C];
/**
 * One object type over a union of shapes (the generated types' `anyOf`): a field every member has stays required,
 * the others are optional with the types they have in the members, nested objects alike. Each member is assignable
 * to it, so an answer typed by the union reads through it without narrowing at each use.
 */
type Flat<U> = { [K in Exclude<KeysOf<U>, RequiredKeys<U>>]?: Deep<ValueOf<U, K>> } & { [K in RequiredKeys<U>]: Deep<ValueOf<U, K>> };

/** A template of `GET /api/v1/message-templates` (generated from the route schemas). */
type ListedTemplate = paths['/api/v1/message-templates']['get']['responses'][200]['content']['application/json']['items'][number];
/** A stored component as the API answers it (the generated union, read as one shape). */
type StoredComponent = components['schemas']['TemplateComponent'];
/** A component of a create request (the generated union, read as one shape). */
type ComponentInput = components['schemas']['TemplateComponentInput'];

/** A template component as the API answers it (HEADER, BODY, FOOTER, BUTTONS, CAROUSEL). */
export type ApiComponent = Flat<StoredComponent>;

/** A button of a BUTTONS component. */
export type ApiButton = Flat<NonNullable<ApiComponent['buttons']>[number]>;

/** Example values of a named parameter. */
export type NamedExample = NonNullable<NonNullable<ApiComponent['example']>['body_text_named_params']>[number];

/** A template in the list. */
export type ApiTemplate = Omit<ListedTemplate, 'components'> & { components: ApiComponent[] };

/** A component of a create request (`POST /api/v1/message-templates`). */
export type ApiComponentInput = Flat<ComponentInput>;

/** A component a preview renders: a stored one, or one the create form is building. */
export type ShownComponent = Flat<StoredComponent | ComponentInput>;

/** A button a preview renders. */
export type ShownButton = NonNullable<ShownComponent['buttons']>[number];

/** Distinct variable names of a text in order of first appearance (`1`, `2` or `first_name`): the server's rule. */
export const variableNames = (text: string | undefined): readonly string[] => namesOf(text ?? '');

/** True for a positional name (`1`, `2`, ...). */
export const isPositional = isPositionalName;

/** Media header formats (their value is a file: an uploaded handle at creation, a link or media id at send). */
export const MEDIA_FORMATS: readonly string[] = MEDIA_HEADER_FORMATS;
