// Generated from openapi.yaml by contract/scripts/generate.mjs (`npm run generate`). Do not edit.

/** A JSON type ('string', 'integer|null', …), a constant, an array of one shape, or an object's required fields. */
export type Shape = string | { const: unknown } | [Shape] | { [field: string]: Shape };

export const validationFindingsEventShape: Shape = {
  "event_id": "string",
  "event_type": {
    "const": "service.validation.findings"
  },
  "timestamp": "integer",
  "customer_id": "string",
  "customer_name": "string",
  "validation_id": "string",
  "mode": "string",
  "question": "string",
  "severity": "string",
  "confidence_level": "string",
  "issue_count": "integer",
  "issues": [
    "string"
  ],
  "findings": [
    {
      "category": "string",
      "status": "string",
      "title": "string",
      "description": "string",
      "severity": "string"
    }
  ],
  "user_corrections": [
    {
      "element": "string",
      "action": "string",
      "note": "string"
    }
  ],
  "source_conflict_count": "integer",
  "output_excerpt": "string",
  "user": {
    "user_id": "string",
    "name": "string",
    "role": "string"
  }
};
