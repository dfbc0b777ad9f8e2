/**
 * Documented shapes of the network's payloads (OpenAPI only): the status object kept as `webhook_response`,
 * and the signed webhook body the receiver stores (checked from the raw bytes, so never by a schema).
 */
import { Type } from 'typebox';

const StatusError = Type.Object({
  code: Type.Integer({ examples: [131049] }),
  title: Type.String(),
  message: Type.Optional(Type.String()),
  error_data: Type.Optional(Type.Object({ details: Type.String() })),
});

/** The status object of a message status webhook (Meta's `value.statuses[]` item), as the network sent it. */
export const WebhookResponseDoc = Type.Union(
  [
    Type.Object(
      {
        id: Type.String({ description: 'the message id at the network (ext_id)' }),
        status: Type.String({ description: 'sent, delivered, read or failed' }),
        timestamp: Type.String({ description: 'Unix seconds' }),
        recipient_id: Type.String(),
        biz_opaque_callback_data: Type.Optional(Type.String({ description: "the service's message id" })),
        conversation: Type.Optional(Type.Object({ id: Type.String(), origin: Type.Optional(Type.Object({ type: Type.String() })) })),
        pricing: Type.Optional(Type.Object({ billable: Type.Boolean(), pricing_model: Type.String(), category: Type.String() })),
        errors: Type.Optional(Type.Array(StatusError)),
      },
      { description: 'fields the network may add are kept as sent' },
    ),
    Type.Null(),
  ],
  {
    $id: 'WebhookResponse',
    description: 'The status payload from the network that set the current state; null until the first status event (its shape is the network\'s)',
  },
);

const Change = Type.Object({
  field: Type.String({ description: 'messages, message_template_status_update, template_category_update, message_template_components_update, message_template_quality_update, phone_number_quality_update' }),
  value: Type.Record(Type.String(), Type.Unknown({ 'x-free-form': true } as never), { description: "the event, in the network's shape for its field", 'x-free-form': true } as never),
});

/** Meta's webhook body (`object`, `entry[].changes[]`). */
export const WebhookBodyDoc = Type.Object(
  {
    object: Type.String({ examples: ['whatsapp_business_account'] }),
    entry: Type.Array(Type.Object({ id: Type.String({ description: 'the WABA id' }), changes: Type.Array(Change) })),
  },
  {
    examples: [{
      object: 'whatsapp_business_account',
      entry: [{
        id: '100000000000001',
        changes: [{
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550100001', phone_number_id: '110000000000001' },
            statuses: [{ id: 'wamid.HBgMOTA1NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OQA=', status: 'delivered', timestamp: '1795446247', recipient_id: '905551234567' }],
          },
        }],
      }],
    }],
  },
);
