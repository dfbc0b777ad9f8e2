/** Template components as the service stores them (the network's create shape, `type` values upper case). */

/** Component kinds. */
export const COMPONENT_TYPES = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS', 'CAROUSEL'] as const;
/** A component kind. */
export type ComponentType = (typeof COMPONENT_TYPES)[number];

/** Header formats. */
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
/** A header format. */
export type HeaderFormat = (typeof HEADER_FORMATS)[number];

/** Header formats whose sample is an uploaded file (`example.header_handle`). */
export const MEDIA_HEADER_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;

/** Button kinds. */
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'REQUEST_CONTACT_INFO'] as const;
/** A button kind. */
export type ButtonType = (typeof BUTTON_TYPES)[number];

/** Example value of one named parameter (`{{first_name}}`). */
export interface NamedParamExample {
  param_name: string;
  example: string;
}

/** HEADER: a text (≤ 1 variable), a media sample handle, or a location chosen at send time. */
export interface HeaderComponent {
  type: 'HEADER';
  format: HeaderFormat;
  text?: string;
  example?: { header_text?: string[]; header_handle?: string[]; header_text_named_params?: NamedParamExample[] };
}

/** BODY: the main text; `example.body_text[0]` holds one sample per positional variable. */
export interface BodyComponent {
  type: 'BODY';
  text: string;
  example?: { body_text?: string[][]; body_text_named_params?: NamedParamExample[] };
}

/** FOOTER: plain text, no variables. */
export interface FooterComponent {
  type: 'FOOTER';
  text: string;
}

/** URL button; `example` holds the sample when `url` ends with `{{1}}`. */
export interface UrlButton {
  type: 'URL';
  text: string;
  url: string;
  example?: string[];
}

/** Call button. */
export interface PhoneNumberButton {
  type: 'PHONE_NUMBER';
  text: string;
  phone_number: string;
}

/** Copy-code (coupon) button; the code itself is a send parameter, `example` a sample code. */
export interface CopyCodeButton {
  type: 'COPY_CODE';
  example?: string;
}

/** Quick-reply button. */
export interface QuickReplyButton {
  type: 'QUICK_REPLY';
  text: string;
}

/**
 * Asks the user to share their phone number (a `contacts` reply with `origin: contact_request`). The network
 * does not let it be customised: no label, no parameters at send time; UTILITY and MARKETING templates only.
 */
export interface RequestContactInfoButton {
  type: 'REQUEST_CONTACT_INFO';
}

/** Any button. */
export type Button = UrlButton | PhoneNumberButton | CopyCodeButton | QuickReplyButton | RequestContactInfoButton;

/** BUTTONS: the template's buttons, in display order (a send's button `index` points here). */
export interface ButtonsComponent {
  type: 'BUTTONS';
  buttons: Button[];
}

/** One carousel card: a media HEADER, an optional BODY and BUTTONS. */
export interface CarouselCard {
  components: Component[];
}

/** CAROUSEL: 2–10 cards of identical structure. */
export interface CarouselComponent {
  type: 'CAROUSEL';
  cards: CarouselCard[];
}

/** Any component. */
export type Component = HeaderComponent | BodyComponent | FooterComponent | ButtonsComponent | CarouselComponent;

/** A template's components as stored. */
export type StoredComponents = Component[];
