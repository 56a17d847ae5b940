import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldWording } from '../src/field-wording.js';

test("a validator's messages in the API's words", () => {
  const said: [string, string][] = [
    ['must NOT have fewer than 1 characters', 'must not be empty'],
    ['must NOT have fewer than 1 items', 'must not be empty'],
    ['must NOT have fewer than 1 properties', 'must not be empty'],
    ['must NOT have fewer than 12 characters', 'must have at least 12 characters'],
    ['must NOT have more than 20 items', 'must have at most 20 items'],
    ['must NOT have more than 3 properties', 'must have at most 3 fields'],
    ['must be >= 1', 'must be at least 1'],
    ['must be <= 100', 'must be at most 100'],
    ['must be string', 'must be a string'],
    ['must be integer', 'must be an integer'],
    ['must be boolean', 'must be true or false'],
    ['must match format "email"', 'must be an email address'],
    ['must match format "date"', 'must be a date (YYYY-MM-DD)'],
    ['must match format "ipv4"', 'must be in the format ipv4'],
    ['must match pattern "^grp_[0-9A-Z]{26}$"', 'must match the pattern ^grp_[0-9A-Z]{26}$'],
    ['must be equal to one of the allowed values: json, csv', 'must be one of: json, csv'],
    ['is not a known field', 'is not a known field'],
  ];
  for (const [message, words] of said) assert.equal(fieldWording(message), words, message);
});
