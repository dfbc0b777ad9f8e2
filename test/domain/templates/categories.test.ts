import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CATEGORIES, CREATION_CATEGORIES, NETWORK_CATEGORIES, TEMPLATE_STATUSES, isCategory, isSendableStatus, isTemplateStatus,
} from '../../../src/domain/templates/categories.js';

test('the API category list is MARKETING with an icon and a title', () => {
  assert.deepEqual(CATEGORIES, [{ icon: 'campaign', value: 'MARKETING', title: 'Marketing' }]);
  assert.deepEqual(CREATION_CATEGORIES, ['MARKETING']);
});

test('the network category set is AUTHENTICATION, MARKETING and UTILITY', () => {
  assert.deepEqual([...NETWORK_CATEGORIES].sort(), ['AUTHENTICATION', 'MARKETING', 'UTILITY']);
  assert.equal(isCategory('UTILITY'), true);
  assert.equal(isCategory('marketing'), false);
  assert.equal(isCategory(undefined), false);
});

test('template statuses are the network\'s fourteen values', () => {
  assert.deepEqual([...TEMPLATE_STATUSES].sort(), [
    'APPROVED', 'ARCHIVED', 'DELETED', 'DISABLED', 'FLAGGED', 'IN_APPEAL', 'LIMIT_EXCEEDED', 'LOCKED', 'PAUSED',
    'PENDING', 'PENDING_DELETION', 'REINSTATED', 'REJECTED', 'UNARCHIVED',
  ]);
  assert.equal(isTemplateStatus('IN_APPEAL'), true);
  assert.equal(isTemplateStatus('ACTIVE'), false);
});

test('only APPROVED templates are sendable', () => {
  assert.deepEqual(TEMPLATE_STATUSES.filter(isSendableStatus), ['APPROVED']);
});
