/**
 * Templates as the API returns them (`GET /api/v1/message-templates`): components in the network's create
 * shape with upper-case `type` values. Only the fields the console reads are typed.
 */

import { isPositionalName, variableNames as namesOf } from '../../../../src/domain/templates/placeholders.js';
import { MEDIA_HEADER_FORMATS } from '../../../../src/domain/templates/types.js';

/** A button of a BUTTONS component. */
export interface ApiButton {
  type: 'URL' | 'PHONE_NUMBER' | 'COPY_CODE' | 'QUICK_REPLY' | string;
  text?: string;
  url?: string;
  phone_number?: string;
  example?: string | string[];
}

/** Example values of a named parameter. */
export interface NamedExample {
  param_name: string;
  example: string;
}

/** A template component (HEADER, BODY, FOOTER, BUTTONS, CAROUSEL). */
export interface ApiComponent {
  type: string;
  format?: string;
  text?: string;
  buttons?: ApiButton[];
  cards?: { components: ApiComponent[] }[];
  example?: {
    header_text?: string[];
    header_handle?: string[];
    header_text_named_params?: NamedExample[];
    body_text?: string[][];
    body_text_named_params?: NamedExample[];
  };
}

/** A template in the list. */
export interface ApiTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components: ApiComponent[];
  rejected_reason: string | null;
  quality_score: string | null;
  channel_id: string;
  created_at: string;
  updated_at: string;
}

/** Distinct variable names of a text in order of first appearance (`1`, `2` or `first_name`): the server's rule. */
export const variableNames = (text: string | undefined): readonly string[] => namesOf(text ?? '');

/** True for a positional name (`1`, `2`, ...). */
export const isPositional = isPositionalName;

/** Media header formats (their value is a file: an uploaded handle at creation, a link or media id at send). */
export const MEDIA_FORMATS: readonly string[] = MEDIA_HEADER_FORMATS;
