// Generated from openapi.yaml by contract/scripts/generate.mjs (`npm run generate`). Do not edit.

export interface paths {
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with email and password
         * @description Exchanges a local account's email and password for a bearer token. Available only for
         *     tenants that use local login; tenants signing in through an identity provider (OIDC) answer
         *     404 `local_login_disabled`. An unknown email and a wrong password get the same answer.
         *     Failed attempts are limited per account and per client address.
         *
         *     Credentials: none. Minimum role: none.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Identity of the caller
         * @description Returns who the caller is: the principal (user or API key), the tenant and its features,
         *     the service role and the data-access roles used for source-group access.
         *
         *     Credentials: bearer token or API key. Minimum role: `viewer`.
         */
        post: operations["getMe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate, generate, or validate and fix an answer
         * @description Checks an answer against source material and returns the result synchronously.
         *     `mode` selects the behaviour:
         *     - `validate` checks `chatbot_response` against the sources.
         *     - `generate` writes an answer to `question` from the sources, then validates it.
         *     - `validate_and_fix` validates `chatbot_response` and returns a corrected version when needed.
         *
         *     Sources come from `source_groups`, `urls` and `inline_text`; at least one is required.
         *     Source-group access is enforced before retrieval: groups the caller may not use are skipped
         *     (never an error) and listed in `metadata.skipped_sources`, with
         *     `metadata.source_access_filtered` set to `true`.
         *
         *     Each validation is recorded in history (and, with the `audit_trail` feature, as a
         *     `validation_created` audit event) and notified to the tenant's webhook. Send an
         *     `Idempotency-Key` header to make retries safe: a repeated key within 24 hours replays the
         *     first response instead of validating again, and a retry after the server process died in the
         *     middle of the first request finishes that request's record (audit events, counts, webhook)
         *     and answers with it, under the same `validation_id`, instead of validating twice.
         *
         *     Credentials: bearer token or API key. Minimum role: `user`.
         */
        post: operations["validate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness probe
         * @description Answers 200 while the process is running. Needs no credentials and is not rate limited.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description Answers 200 when the server can serve requests (its Cosmos DB database answers), 503 otherwise.
         *     Needs no credentials and is not rate limited.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List templates
         * @description Lists all of the tenant's document templates, inactive ones included, newest first.
         *     A tenant holds at most 200 templates, so the list is not paged. Templates still
         *     `awaiting_upload` are checked as in `getTemplate`.
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`. Feature: `document_templates`.
         */
        post: operations["listTemplates"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/upload-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a presigned upload URL for a new template
         * @description Creates a template in state `awaiting_upload` and returns a presigned object-storage URL.
         *     Upload the file with `PUT` to `upload_url`, sending the returned `headers`, before
         *     `expires_at`; then call `POST /api/v1/templates/{id}/scan`. A tenant holds at most 200
         *     templates (409 `limit_reached`).
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`. Feature: `document_templates`.
         */
        post: operations["getTemplateUploadUrl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The template id. */
                id: components["parameters"]["TemplateIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a template with its schema
         * @description Returns one template with its placeholders and schema. A template still `awaiting_upload`
         *     is checked first: when its file has arrived, the server reads it (size within the declared
         *     `size_bytes` and 25 MiB, content matching `content_type` by its leading bytes, SHA-256
         *     computed from the bytes) and answers `uploaded`, or `rejected` with the file deleted.
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`. Feature: `document_templates`.
         */
        post: operations["getTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/{id}/scan": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The template id. */
                id: components["parameters"]["TemplateIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Detect placeholders and build the initial schema
         * @description Reads the uploaded file, detects its `{{placeholder}}` fields and builds an initial schema
         *     with one string field per placeholder. Scanning again replaces the placeholders and resets
         *     the schema. Answers 409 `template_not_uploaded` while no file has been uploaded (or the file
         *     was rejected), and 409 `template_scan_failed` when the file cannot be read as a template
         *     (a damaged DOCX, more than 200 placeholders, or a scan over its time or memory budget); the
         *     template then stays `uploaded`.
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`. Feature: `document_templates`.
         */
        post: operations["scanTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/{id}/save": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The template id. */
                id: components["parameters"]["TemplateIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Save a template's schema and active flag
         * @description Updates the fields given; omitted fields keep their value. A template can be activated, and
         *     given a `schema`, only after a scan (409 `template_not_scanned` otherwise). Schema field names
         *     must be unique and each must be one of the template's scanned placeholders (400
         *     `invalid_request` with the field's pointer otherwise); placeholders may be left out.
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`. Feature: `document_templates`.
         */
        post: operations["saveTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/{id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The template id. */
                id: components["parameters"]["TemplateIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete a template
         * @description Deletes the template and its stored file.
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`. Feature: `document_templates`.
         */
        post: operations["deleteTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List source groups with their files
         * @description Lists the source groups with their file inventory. Admins see every group; other callers
         *     see the groups their data-access roles allow them to use. A tenant holds at most 100 groups,
         *     so the list is not paged.
         *
         *     Credentials: bearer token or API key. Minimum role: `viewer`.
         */
        post: operations["listSourceGroups"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sources/upload-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a presigned URL for uploading a file into a group
         * @description Registers a file in the group in state `awaiting_upload` and returns a presigned URL.
         *     Upload with `PUT` to `upload_url`, sending the returned `headers`, before `expires_at`.
         *     A group holds at most 1000 files (409 `limit_reached`).
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`.
         */
        post: operations["getSourceUploadUrl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sources/group/save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or update a source group
         * @description Without `group_id`, creates a group (`name` required). With `group_id`, updates the fields
         *     given; omitted fields keep their value, so an update never opens a restricted group by
         *     leaving out `allowed_roles`. Group names are unique per tenant (409 `group_name_taken`);
         *     a tenant holds at most 100 groups (409 `limit_reached`).
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`.
         */
        post: operations["saveSourceGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sources/group/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete a source group
         * @description Deletes the group. With `purge_files: true` its stored files are deleted as well; otherwise
         *     the files are kept in storage, detached, until the account is deleted.
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`.
         */
        post: operations["deleteSourceGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sources/file/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete a single file
         * @description Deletes one file of a group from storage and from the group's inventory.
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`.
         */
        post: operations["deleteSourceFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Query validation history
         * @description Lists validation records of the tenant, newest first, filtered by user, mode, date range,
         *     confidence level and review state, or one record by its `validation_id` (a review screen
         *     reading one case). Cursor-paged: pass `next_cursor` back as `cursor` while
         *     `has_more` is true; records made while a client pages do not shift the pages still to come.
         *     Records expire after the tenant's history retention (default 90 days).
         *
         *     Admins see every record of the tenant; other callers see their own records and those whose
         *     source groups they may all use (the groups' `allowed_roles`), as a record holds what was
         *     found in those sources. A record the caller does not see answers 404 on review.
         *
         *     Credentials: bearer token or API key. Minimum role: `viewer`.
         */
        post: operations["listHistory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/history/{id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The validation id. */
                id: components["parameters"]["ValidationIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a review action
         * @description Applies a review action to a validation and returns the updated record. Allowed transitions:
         *
         *     | from | action | to | audit event |
         *     |---|---|---|---|
         *     | `pending_review` | `approve` | `approved` | `approved` |
         *     | `pending_review` | `reject` | `rejected` | `rejected` |
         *     | `pending_review` | `edit` | `edited` | `edited` |
         *     | `pending_review` | `handoff` | `handed_off` | `review_handed_off` |
         *     | `handed_off` | `external_approve` | `external_approved` | `external_review_approved` |
         *     | `handed_off` | `external_reject` | `external_rejected` | `external_review_rejected` |
         *
         *     Any other action answers 409 `invalid_review_transition` and changes nothing.
         *     `approve`, `reject` and `edit` require a `note`; `edit` requires `corrections`;
         *     `handoff` requires `external_reference`.
         *
         *     Credentials: bearer token or API key. Minimum role: `user`.
         */
        post: operations["reviewValidation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Tenant usage counters
         * @description Usage counters of the tenant: validations in the current calendar month and in total
         *     retained history, reviews by state, and stored sources and templates.
         *
         *     Credentials: bearer token or API key. Minimum role: `viewer`.
         */
        post: operations["getStats"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Full analytics payload
         * @description Analytics over a date range (default: the last 30 days, at most 366 days): totals, a daily
         *     series, and breakdowns by mode, severity, confidence level, finding category and review state;
         *     and the engine's agreement with the tenant's reviewers on the decided reviews (`engine_agreement`), with an
         *     operating point fitted to them when they are enough (`calibration`).
         *
         *     Credentials: bearer token or API key. Minimum role: `viewer`.
         */
        post: operations["getAnalytics"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics/csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Analytics as CSV
         * @description The daily series of `POST /api/v1/analytics` as RFC 4180 CSV, one row per day, with a header
         *     row: the day's counts, then its engine agreement (`agreement_decisions`, `agreement_flagged_wrong`,
         *     `agreement_flagged_right`, `agreement_unflagged_wrong`, `agreement_unflagged_right`). Cells that a
         *     spreadsheet would read as a formula are prefixed with `'`.
         *
         *     Credentials: bearer token or API key. Minimum role: `viewer`.
         */
        post: operations["getAnalyticsCsv"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Query audit events
         * @description Lists the tenant's audit events in strict chronological (sequence) order, oldest first,
         *     filtered by kind, actor, validation and date range (inclusive whole UTC days; `date_to`
         *     before `date_from` answers 400). Cursor-paged. Events are returned in the
         *     `raw` shape, including the hash chain (`hash`, `prev_hash`) that lets a consumer verify that
         *     no event was changed, removed or reordered.
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`. Feature: `audit_trail`.
         */
        post: operations["listAuditEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export audit events as JSON or CSV
         * @description Exports every audit event of a date range, in sequence order, as one streamed document.
         *     - `format`: `json` (default) or `csv`.
         *     - `days`: rolling window of `days` calendar days ending today (UTC), default 30, used when
         *       neither `date_from` nor `date_to` is given. `date_from` alone runs to today (a `date_from`
         *       after today answers 400); `date_to` alone covers the `days` days ending on it. Both dates
         *       are inclusive whole UTC days; `date_to` before `date_from` answers 400.
         *     - `profile`: `enterprise_v1` (default) pseudonymizes the actor (`actor_ref`, a keyed HMAC
         *       stable per tenant) and replaces free text with `payload_summary`; `raw` returns events
         *       exactly as `POST /api/v1/audit` does.
         *
         *     CSV is RFC 4180 (CRLF line ends), one row per event, with cells beginning `=`, `+`, `-`, `@`,
         *     a tab or a carriage return prefixed with `'` against formula injection. Profile `raw` has the
         *     same columns without `schema_version` and with `actor_id` in place of `actor_ref`.
         *
         *     Credentials: bearer token or API key. Minimum role: `admin`. Feature: `audit_trail`.
         */
        post: operations["exportAuditEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/system-card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The current system card
         * @description Describes what the service does and does not do, the validation method and its version,
         *     known limitations, data handling, the tenant's retention settings, the region and the schema
         *     versions in use.
         *
         *     Credentials: bearer token or API key. Minimum role: `viewer`. Feature: `audit_trail`.
         */
        post: operations["getSystemCard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/engine/operating-point": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fit and apply the tenant's operating point
         * @description Fits the `supported_score` threshold on the tenant's own decided reviews now, as analytics'
         *     `calibration` reports it, and applies the suggested point when there is one: new validations of the
         *     tenant then use it, and the audit trail records an `operating_point_applied` event naming the old and
         *     new `supported_score`, the target precision, the decisions the point rests on and the precision and
         *     recall of both points on the newer decisions. Only the tenant's own decisions are used; a deleted
         *     validation, or one whose history expired, no longer counts.
         *
         *     The tenant file's `engine.supported_score` is the default. An applied point overrides it while the
         *     tenant's `engine.calibration.mode` is `suggest` or `apply` and the file's `engine.supported_score`
         *     stays what it was when the point was applied: setting the mode to `off`, or changing
         *     `engine.supported_score` in the file, puts the file's value back in force (the operator's edit wins).
         *     In mode `apply` the server also fits by itself, periodically and after every
         *     `engine.calibration.refit_every` new decisions, and applies the same way with the `system` actor.
         *     Other server processes use a newly applied point within 30 seconds (each keeps what it read that long).
         *
         *     Nothing to apply answers 409: `too_few_decisions` (fewer decided reviews than
         *     `engine.calibration.min_decisions`, or fewer than `min_each` found right or wrong),
         *     `no_better_operating_point` (no point beats the current one on the newer decisions, or the one that
         *     does is already in force), `calibration_off` (the tenant's `engine.calibration.mode` is `off`).
         *
         *     Credentials: bearer token only. Minimum role: `admin`.
         */
        post: operations["applyOperatingPoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/saas/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List users
         * @description Lists the tenant's local users, ordered by email, cursor-paged.
         *
         *     Credentials: bearer token only. Minimum role: `admin`.
         */
        post: operations["listUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/saas/users/save": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or update a user
         * @description Without `user_id`, creates a user (`email` and `role` required; `password` sets a local-login
         *     password). With `user_id`, updates the fields given. Emails are unique per tenant
         *     (409 `email_taken`). A change that would leave the tenant without an active admin (lowering
         *     the role of, or disabling, its last active admin) answers 409 `last_admin`.
         *
         *     Credentials: bearer token only. Minimum role: `admin`.
         */
        post: operations["saveUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/saas/users/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove a user
         * @description Removes a user. Their past validations and audit events keep their user id. Removing the
         *     last admin answers 409 `last_admin`.
         *
         *     Credentials: bearer token only. Minimum role: `admin`.
         */
        post: operations["deleteUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/saas/billing-portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get the billing portal URL
         * @description Returns a short-lived URL of the payment provider's billing portal for this tenant. After
         *     leaving the portal the user is sent to `return_url`. Deployments without a payment provider
         *     answer 404 `billing_not_configured`.
         *
         *     Credentials: bearer token only. Minimum role: `admin`.
         */
        post: operations["getBillingPortal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export the tenant's account data as a ZIP bundle
         * @description Streams a ZIP bundle with the tenant's data as JSON Lines files: `manifest.json`,
         *     `users.jsonl` (without password hashes), `source_groups.jsonl`, `templates.jsonl`,
         *     `history.jsonl` and, with the `audit_trail` feature, `audit_events.jsonl`. Stored files are
         *     listed by reference and SHA-256 hash, not included.
         *
         *     Each line is one object in the shape the API returns it (`User`, `SourceGroup`, `Template`,
         *     `ValidationRecord`, `AuditEvent`). `manifest.json` is the last entry of the ZIP, as it
         *     describes the files written before it: `schema_version` (`1.0`), `customer_id`,
         *     `generated_at`, `tenant` (the tenant's settings from the operator's configuration, without
         *     secrets: no API key hashes, passwords, tokens, signing secrets, endpoint credentials or
         *     payment provider ids) and `files` (each file's `name`, `records`, `bytes` and `sha256`).
         *
         *     Credentials: bearer token only. Minimum role: `admin`.
         */
        post: operations["exportAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Terminate the tenant account
         * @description Deletes all of the tenant's data: users, source groups and their files, templates, history
         *     and idempotency records. `confirmation` must be exactly `DELETE <customer_id>` (for example
         *     `DELETE acme`); anything else answers 400 `confirmation_mismatch` and deletes nothing.
         *     Audit events are kept until their retention expires, as the trail requires, and the tenant
         *     entry in the operator's configuration file is left to the operator.
         *
         *     Credentials: bearer token only. Minimum role: `admin`.
         */
        post: operations["deleteAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "service.validation.findings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A validation completed
         * @description Sent once per completed validation, in every mode, to the tenant's `webhook.url`
         *     (configured by the operator). With `webhook.include_successful: false` (the default) only
         *     validations with at least one issue are sent.
         *
         *     - When `webhook.bearer_token` is set, the request carries `Authorization: Bearer <token>`:
         *       verify it in constant time. Rotate it periodically (accept the old and the new token
         *       while the operator switches).
         *     - Fire and forget: the receiver has 5 seconds to answer with a 2xx status; a failed
         *       delivery is logged and not retried. Ordering is best effort: reconcile by `timestamp`.
         *     - Deduplicate on `event_id` (also sent as the `Groundcheck-Event-Id` header).
         *     - When the operator set `webhook.signing_secret`, the request is also signed in the
         *       Standard Webhooks form: `webhook-id` (the `event_id`), `webhook-timestamp` (Unix seconds)
         *       and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`
         *       keyed with the base64-decoded part of the `whsec_` secret). Verify it over the raw body
         *       in constant time and refuse timestamps more than 5 minutes away (the SDK's
         *       `verifyWebhook({ signingSecret })` does both).
         *     - A redirect answer counts as a failed delivery and is not followed.
         *     - The webhook is a hint, not a queue: poll `POST /api/v1/history` or `POST /api/v1/audit`
         *       when no event may be missed.
         */
        post: operations["onValidationFindings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description The tenant's identifier, chosen by the operator.
         * @example acme
         */
        CustomerId: string;
        /**
         * @description An API key: `gck_`, an 8-character public key id, `_`, and a 32-character secret, all
         *     alphanumeric. Only the public part (`key_<id>`) ever appears in logs or audit events.
         * @example gck_Ab12Cd34_0123456789abcdefghijklmnopqrstuv
         */
        ApiKey: string;
        /** @example val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y */
        ValidationId: string;
        /** @example tpl_01JD3XC4D5E6F7G8H9J0K1M2N3 */
        TemplateId: string;
        /** @example grp_01JD3XA1B2C3D4E5F6G7H8J9K0 */
        SourceGroupId: string;
        /** @example fil_01JD3XB7C8D9E0F1G2H3J4K5M6 */
        SourceFileId: string;
        /** @example usr_01JC9ZK4W7Q2M5T8V1X3B6D9F0 */
        UserId: string;
        /** @example aud_01JD3Y0A1B2C3D4E5F6G7H8J9K */
        AuditEventId: string;
        /** @example evt_01JD3X8R2K4M6P8R0T2V4X6Z8B */
        WebhookEventId: string;
        /**
         * @description A user id (`usr_…`), an API key's public id (`key_…`), an OIDC subject (`sub:…`) or `system`.
         * @example usr_01JC9ZK4W7Q2M5T8V1X3B6D9F0
         * @example key_Ab12Cd34
         */
        ActorId: string;
        /**
         * Format: date
         * @description A calendar date, `YYYY-MM-DD`, interpreted in UTC.
         * @example 2026-11-21
         */
        CalendarDate: string;
        /** @description Lower-case hexadecimal SHA-256 digest. */
        Sha256: string;
        /** @description Opaque cursor from a previous page's `next_cursor`. */
        Cursor: string;
        /**
         * Format: int32
         * @description Items per page.
         * @default 25
         */
        PageLimit: number;
        DataAccessRole: string;
        DataAccessRoles: components["schemas"]["DataAccessRole"][];
        /**
         * @description The service's role model, in increasing order of rights.
         * @enum {string}
         */
        Role: "viewer" | "user" | "admin";
        /** @enum {string} */
        Mode: "validate" | "generate" | "validate_and_fix";
        /**
         * @description `none` when nothing was found; otherwise the highest severity among the findings.
         * @enum {string}
         */
        Severity: "none" | "low" | "medium" | "high" | "critical";
        /**
         * @description How well the checked answer is grounded in the sources, from the claims' scores.
         * @enum {string}
         */
        ConfidenceLevel: "high" | "medium" | "low";
        /** @enum {string} */
        ClaimStatus: "supported" | "unsupported" | "contradicted";
        /**
         * @description `verifier_unavailable`: the model-backed verifier the tenant uses (a judge or a local entailment
         *     model) could not decide some claims (time or token budget, rate limit, an unusable reply, a
         *     model that did not load); those claims keep the deterministic checks' verdicts.
         * @enum {string}
         */
        FindingCategory: "contradicted_claim" | "unsupported_claim" | "source_conflict" | "incomplete_answer" | "source_unavailable" | "verifier_unavailable";
        /**
         * @description `failed` and `warning` count as issues; `fixed` marks a finding corrected by `validate_and_fix`.
         * @enum {string}
         */
        FindingStatus: "failed" | "warning" | "passed" | "fixed";
        /** @enum {string} */
        ReviewAction: "approve" | "reject" | "edit" | "handoff" | "external_approve" | "external_reject";
        /**
         * @description `not_required` when the tenant's workflow did not ask for review; see the review operation for transitions.
         * @enum {string}
         */
        ReviewState: "not_required" | "pending_review" | "approved" | "rejected" | "edited" | "handed_off" | "external_approved" | "external_rejected";
        /** @enum {string} */
        CorrectionAction: "replace" | "remove" | "add" | "annotate";
        /**
         * @description `account_deleted` records that an admin deleted the tenant's account; it is the last event of the tenant's trail.
         *     `operating_point_applied` records that the tenant's operating point (`supported_score`) was fitted to its own
         *     decided reviews and applied: by an admin (`POST /api/v1/engine/operating-point`) or by the server (actor
         *     `system`, calibration mode `apply`).
         * @enum {string}
         */
        AuditEventKind: "validation_created" | "review_required" | "approved" | "rejected" | "edited" | "review_handed_off" | "external_review_approved" | "external_review_rejected" | "account_deleted" | "operating_point_applied";
        /** @enum {string} */
        ActorType: "user" | "api_key" | "system";
        /** @description A body that carries nothing but the optional API-key credentials. */
        CredentialsOnlyRequest: {
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        /** @description An empty body. */
        EmptyRequest: Record<string, never>;
        /** @description RFC 9457 problem details. */
        Problem: {
            /**
             * Format: uri
             * @description `https://groundcheck.dev/problems/<code>`.
             */
            type: string;
            /** @description Short summary of the problem type. */
            title: string;
            /** Format: int32 */
            status: number;
            /** @description Explanation of this occurrence. */
            detail?: string;
            /** @description The request path. */
            instance?: string;
            /**
             * @description Machine-readable code; `type` ends with it. Each operation names the codes it can return
             *     with each status (`x-problem-codes`). New codes may be added within v1: treat an unknown
             *     code by its status.
             * @enum {string}
             */
            code: "invalid_request" | "malformed_json" | "malformed_request" | "confirmation_mismatch" | "unauthenticated" | "invalid_token" | "token_expired" | "invalid_api_key" | "invalid_credentials" | "insufficient_role" | "feature_disabled" | "api_key_not_allowed" | "not_found" | "local_login_disabled" | "billing_not_configured" | "method_not_allowed" | "request_timeout" | "idempotency_key_reused" | "idempotency_in_progress" | "invalid_review_transition" | "template_not_uploaded" | "template_not_scanned" | "template_scan_failed" | "group_name_taken" | "email_taken" | "last_admin" | "limit_reached" | "too_few_decisions" | "no_better_operating_point" | "calibration_off" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "too_many_login_attempts" | "headers_too_large" | "internal_error" | "not_implemented" | "service_unavailable";
            request_id: string;
            /** @description One entry per invalid field. */
            errors?: components["schemas"]["FieldError"][];
        };
        FieldError: {
            /**
             * @description RFC 6901 JSON pointer into the request body (`/urls/0`; the empty string `""` for the whole
             *     body, as when it is not an object), or `header:<name>`, `path:<name>`.
             */
            pointer: string;
            detail: string;
        };
        LoginRequest: {
            /** Format: email */
            email: string;
            password: string;
            customer_id: components["schemas"]["CustomerId"];
        };
        LoginResponse: {
            /** @description A JWT to send as `Authorization: Bearer <token>`. */
            token: string;
            /** @enum {string} */
            token_type: "Bearer";
            /**
             * Format: int32
             * @description Seconds until the token expires (3600).
             */
            expires_in: number;
            /** Format: date-time */
            expires_at: string;
        };
        Me: {
            principal: {
                type: components["schemas"]["ActorType"];
                id: components["schemas"]["ActorId"];
                email?: string;
                name?: string;
            };
            customer: {
                customer_id: components["schemas"]["CustomerId"];
                name: string;
                features: components["schemas"]["Features"];
            };
            role: components["schemas"]["Role"];
            data_access_roles: components["schemas"]["DataAccessRoles"];
            /**
             * @description How the caller authenticated.
             * @enum {string}
             */
            authentication: "local" | "oidc" | "api_key";
            /**
             * Format: date-time
             * @description When the bearer token expires; null for API keys.
             */
            expires_at?: string | null;
        };
        Features: {
            document_templates: boolean;
            audit_trail: boolean;
        };
        /** @description The body of `POST /api/v1/validate`, one shape per `mode`. */
        ValidationRequest: components["schemas"]["ValidateModeRequest"] | components["schemas"]["GenerateModeRequest"] | components["schemas"]["ValidateAndFixModeRequest"];
        /** @description Check an existing answer against the sources. */
        ValidateModeRequest: {
            /** @constant */
            mode: "validate";
            question: components["schemas"]["Question"];
            chatbot_response: components["schemas"]["ChatbotResponse"];
            source_groups?: components["schemas"]["SourceGroupRefs"];
            urls?: components["schemas"]["SourceUrls"];
            inline_text?: components["schemas"]["InlineText"];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        } & (components["schemas"]["AtLeastOneSource"] & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            mode: "validate";
        });
        /** @description Generate an answer from the sources, then validate it. */
        GenerateModeRequest: {
            /** @constant */
            mode: "generate";
            question: components["schemas"]["Question"];
            source_groups?: components["schemas"]["SourceGroupRefs"];
            urls?: components["schemas"]["SourceUrls"];
            inline_text?: components["schemas"]["InlineText"];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        } & (components["schemas"]["AtLeastOneSource"] & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            mode: "generate";
        });
        /** @description Validate an existing answer and correct it where the sources disagree. */
        ValidateAndFixModeRequest: {
            /** @constant */
            mode: "validate_and_fix";
            question: components["schemas"]["Question"];
            chatbot_response: components["schemas"]["ChatbotResponse"];
            source_groups?: components["schemas"]["SourceGroupRefs"];
            urls?: components["schemas"]["SourceUrls"];
            inline_text?: components["schemas"]["InlineText"];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        } & (components["schemas"]["AtLeastOneSource"] & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            mode: "validate_and_fix";
        });
        /**
         * @description At least one of `source_groups`, `urls` and `inline_text` is required. Each alternative is a
         *     typed object naming its field, so that generated clients type it as a union (a request with
         *     no source does not compile) instead of dropping the rule.
         */
        AtLeastOneSource: {
            source_groups: components["schemas"]["SourceGroupRefs"];
        } | {
            urls: components["schemas"]["SourceUrls"];
        } | {
            inline_text: components["schemas"]["InlineText"];
        };
        Question: string;
        ChatbotResponse: string;
        /** @description Source groups to retrieve from, by id. Groups the caller may not use are skipped. */
        SourceGroupRefs: components["schemas"]["SourceGroupId"][];
        /** @description `http` or `https` URLs to fetch. Addresses in private, loopback or link-local ranges are skipped. */
        SourceUrls: string[];
        InlineText: string;
        /** @description The result of `POST /api/v1/validate`, one shape per `mode`. */
        ValidationResult: components["schemas"]["ValidateModeResult"] | components["schemas"]["GenerateModeResult"] | components["schemas"]["ValidateAndFixModeResult"];
        /** @description Fields every mode returns. */
        ValidationCommon: {
            validation_id: components["schemas"]["ValidationId"];
            /** Format: date-time */
            created_at: string;
            question: string;
            /** @description The checked answer split into claims, in order of appearance. */
            claims: components["schemas"]["Claim"][];
            findings: components["schemas"]["Finding"][];
            /** @description One human-readable line per finding with status `failed` or `warning`. */
            issues: string[];
            /**
             * Format: int32
             * @description The length of `issues`.
             */
            issue_count: number;
            severity: components["schemas"]["Severity"];
            confidence_level: components["schemas"]["ConfidenceLevel"];
            confidence_score?: number;
            /**
             * Format: int32
             * @description Pairs of sources that disagree on a claim.
             */
            source_conflict_count: number;
            /** @description Every source used, by reference and content hash (never its content). */
            sources: components["schemas"]["SourceUsed"][];
            metadata: components["schemas"]["ValidationMetadata"];
            review: components["schemas"]["ReviewStatus"];
            rate_limit: components["schemas"]["RateLimit"];
        };
        ValidateModeResult: components["schemas"]["ValidationCommon"] & {
            /** @constant */
            mode: "validate";
            /** @description The checked answer; claim offsets refer to it. */
            chatbot_response: string;
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            mode: "validate";
        };
        GenerateModeResult: components["schemas"]["ValidationCommon"] & {
            /** @constant */
            mode: "generate";
            /** @description The generated answer; claim offsets refer to it. */
            answer: string;
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            mode: "generate";
        };
        ValidateAndFixModeResult: components["schemas"]["ValidationCommon"] & {
            /** @constant */
            mode: "validate_and_fix";
            /** @description The checked answer; claim offsets refer to it. */
            chatbot_response: string;
            /** @description The answer with unsupported or contradicted claims corrected; equal to `chatbot_response` when nothing needed fixing. */
            corrected_response: string;
            corrections: components["schemas"]["Correction"][];
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            mode: "validate_and_fix";
        };
        Claim: {
            text: string;
            /**
             * Format: int32
             * @description UTF-16 code unit offset of the claim's first character in the checked answer.
             */
            start: number;
            /**
             * Format: int32
             * @description UTF-16 code unit offset just past the claim's last character (exclusive).
             */
            end: number;
            status: components["schemas"]["ClaimStatus"];
            /** @description How strongly the evidence supports the claim. */
            score: number;
            evidence: components["schemas"]["Evidence"][];
            /**
             * @description What decided the claim's status: `deterministic`, the engine's checks alone; `onnx`, the checks
             *     with the local entailment model's signal; `openai`, the model-backed judge, whose verdict is
             *     taken only when the evidence it quotes is found in the sources. Always present in the reference
             *     server's answers.
             * @enum {string}
             */
            verifier?: "deterministic" | "onnx" | "openai";
        };
        Evidence: {
            /** @description The `source_id` of an entry in `sources`. */
            source_id: string;
            /**
             * Format: int32
             * @description UTF-16 offset of the span in the source's extracted text.
             */
            start: number;
            /**
             * Format: int32
             * @description Exclusive end offset of the span.
             */
            end: number;
            /** @description The span, cut to 1000 characters. */
            text: string;
            /** @enum {string} */
            relation: "supports" | "contradicts" | "related";
        };
        Finding: {
            category: components["schemas"]["FindingCategory"];
            status: components["schemas"]["FindingStatus"];
            title: string;
            description: string;
            severity: components["schemas"]["Severity"];
            /**
             * Format: int32
             * @description Index in `claims` of the claim concerned, when there is one.
             */
            claim_index?: number | null;
        };
        Correction: {
            /** Format: int32 */
            claim_index: number;
            /**
             * Format: int32
             * @description Offset in `chatbot_response`.
             */
            start: number;
            /** Format: int32 */
            end: number;
            original_text: string;
            corrected_text: string;
        };
        SourceUsed: {
            /** @description Local id used by `evidence`, unique within the result. */
            source_id: string;
            /** @enum {string} */
            kind: "file" | "endpoint" | "url" | "inline_text";
            /**
             * @description The file reference (`grp_…/fil_…/name`), the URL, `inline_text`, or for an endpoint's
             *     passage the endpoint name, followed by `: ` and the passage's own `reference` when it has one.
             */
            reference: string;
            group_id?: components["schemas"]["SourceGroupId"];
            sha256: components["schemas"]["Sha256"];
        };
        SkippedSource: {
            /** @enum {string} */
            kind: "source_group" | "file" | "endpoint" | "url";
            /** @description The group id, the file reference (`grp_…/fil_…/name`), the endpoint name, or the URL. */
            reference: string;
            /** @description The group of a skipped file or endpoint. */
            group_id?: components["schemas"]["SourceGroupId"];
            /**
             * @description Why the source was skipped. A group that does not exist and a group the caller may not use
             *     are both reported as `access_denied`, so that group ids cannot be probed.
             *     `extraction_failed`: no text could be extracted from the file (for example a scanned PDF,
             *     a damaged or password-protected file, or a file whose parsing ran out of time).
             * @enum {string}
             */
            reason: "access_denied" | "blocked_address" | "fetch_failed" | "too_large" | "unsupported_content" | "extraction_failed";
            /**
             * @description The reason in a sentence for a person (an `access_denied` group is "not found or not
             *     accessible"), on every skipped source the reference server reports. Its wording may change;
             *     `reason` does not.
             */
            detail?: string;
        };
        ValidationMetadata: {
            /** @description True when at least one requested source group was skipped because the caller may not use it. */
            source_access_filtered: boolean;
            skipped_sources: components["schemas"]["SkippedSource"][];
            engine: {
                method: string;
                version: string;
                /**
                 * @description The model-backed verifier behind the checks for this tenant (`none`, the checks alone). Always present in the reference server's answers.
                 * @enum {string}
                 */
                verifier?: "none" | "onnx" | "openai";
                /** @description The judge's model (or Azure deployment) name; `local` for the entailment model. */
                verifier_model?: string;
            };
            /** Format: int32 */
            duration_ms?: number;
        };
        ReviewStatus: {
            required: boolean;
            state: components["schemas"]["ReviewState"];
        };
        /** @description The caller's rate-limit window after this request; the same figures as the `RateLimit-*` headers. */
        RateLimit: {
            /** Format: int32 */
            limit: number;
            /** Format: int32 */
            remaining: number;
            /**
             * Format: int32
             * @description Seconds until the window resets.
             */
            reset: number;
        };
        /**
         * @description `awaiting_upload` until the server has checked the uploaded file (on the next get, list or
         *     scan), then `uploaded`, then `scanned`. `rejected`: the uploaded file failed the checks (it
         *     is deleted) or no file arrived before the upload URL expired; see `rejection_reason`. A
         *     rejected template stays rejected: delete it and create a new one.
         * @enum {string}
         */
        TemplateStatus: "awaiting_upload" | "uploaded" | "scanned" | "rejected";
        /**
         * @description Why a template is `rejected`: `empty` (a file of 0 bytes), `too_large` (over 25 MiB),
         *     `size_mismatch` (not the `size_bytes` declared), `content_mismatch` (the leading bytes do not
         *     match the declared `content_type`), `upload_expired` (no file before the upload URL expired).
         * @enum {string}
         */
        TemplateRejectionReason: "empty" | "too_large" | "size_mismatch" | "content_mismatch" | "upload_expired";
        /** @enum {string} */
        TemplateFieldType: "string" | "number" | "date" | "boolean";
        TemplateSchema: {
            fields: {
                name: string;
                type: components["schemas"]["TemplateFieldType"];
                required: boolean;
                description?: string;
            }[];
        };
        Placeholder: {
            name: string;
            /** Format: int32 */
            occurrences: number;
        };
        Template: {
            template_id: components["schemas"]["TemplateId"];
            name: string;
            description?: string | null;
            status: components["schemas"]["TemplateStatus"];
            active: boolean;
            file: {
                name: string;
                content_type: string;
                /** Format: int64 */
                size_bytes?: number | null;
                sha256?: components["schemas"]["Sha256"] | null;
            };
            placeholders: components["schemas"]["Placeholder"][];
            schema: components["schemas"]["TemplateSchema"] | null;
            /** @description Set when `status` is `rejected`, otherwise null. */
            rejection_reason?: components["schemas"]["TemplateRejectionReason"] | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        TemplateList: {
            data: components["schemas"]["Template"][];
        };
        TemplateUploadUrlRequest: {
            name: string;
            description?: string;
            file_name: components["schemas"]["FileName"];
            /** @enum {string} */
            content_type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" | "text/markdown" | "text/plain" | "text/html";
            /** Format: int64 */
            size_bytes?: number;
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        TemplateUploadUrl: components["schemas"]["PresignedUpload"] & {
            template_id: components["schemas"]["TemplateId"];
        };
        TemplateSaveRequest: {
            name?: string;
            description?: string | null;
            schema?: components["schemas"]["TemplateSchema"];
            active?: boolean;
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        DeletedTemplate: {
            template_id: components["schemas"]["TemplateId"];
            /** @constant */
            deleted: true;
        };
        PresignedUpload: {
            /**
             * Format: uri
             * @description A presigned (SAS) URL, valid until `expires_at`.
             */
            upload_url: string;
            /** @enum {string} */
            method: "PUT";
            /** @description Headers the upload request must carry. */
            headers: {
                [key: string]: string;
            };
            /** Format: date-time */
            expires_at: string;
        };
        FileName: string;
        /** @description Which pieces of the caller's context are forwarded to the endpoint. All are off by default. */
        AuthzForwarding: {
            /**
             * @description Forward `X-Service-User-Id`.
             * @default false
             */
            user_id?: boolean;
            /**
             * @description Forward `X-Service-Customer-Id`.
             * @default false
             */
            customer_id?: boolean;
            /**
             * @description Forward `X-Service-Data-Access-Roles`.
             * @default false
             */
            data_access_roles?: boolean;
            /**
             * @description Forward `X-Service-Original-JWT`.
             * @default false
             */
            original_jwt?: boolean;
        };
        /**
         * @description An API-backed source queried at validation time, once per validation that uses its group
         *     (after the caller's access to the group is checked). The server sends `POST <url>` with
         *     `Content-Type: application/json` and the body `{"question": "<question>"}`, plus the
         *     `X-Service-*` headers its `authz_forwarding` turns on and any technical credentials the
         *     operator configured for this exact URL in the tenant file (never set or shown through the
         *     API). It expects `200` with `application/json`
         *     `{"passages": [{"text": "...", "reference": "..."}]}` (`reference` optional; the first 100
         *     passages are used), at most 1 MiB, within 15 seconds; redirects are not followed. Any other
         *     answer, or an address the tenant's outbound policy refuses, skips the endpoint for that
         *     request (`metadata.skipped_sources`); it is never an error. Forwarded values: `X-Service-User-Id`
         *     the caller's principal id (`usr_…`, `sub:<subject>`, `key_…`), `X-Service-Customer-Id` the
         *     tenant, `X-Service-Data-Access-Roles` the caller's data-access roles separated by commas,
         *     `X-Service-Original-JWT` the bearer token of a caller signed in through the tenant's identity
         *     provider (OIDC; never a local-login token, nor for an API key). Characters outside visible
         *     ASCII, `%` and `,` are percent-encoded (UTF-8).
         */
        SourceEndpoint: {
            name: string;
            /** Format: uri */
            url: string;
            authz_forwarding?: components["schemas"]["AuthzForwarding"];
        };
        /**
         * @description `awaiting_upload` until the server has read and checked the uploaded file, then `ready`;
         *     `rejected` when the stored file failed the checks (it is deleted; see `rejection_reason`).
         * @enum {string}
         */
        SourceFileStatus: "awaiting_upload" | "ready" | "rejected";
        SourceFile: {
            file_id: components["schemas"]["SourceFileId"];
            name: string;
            content_type: string;
            /** Format: int64 */
            size_bytes?: number | null;
            sha256?: components["schemas"]["Sha256"] | null;
            status: components["schemas"]["SourceFileStatus"];
            /**
             * @description Why a `rejected` file was refused; null otherwise.
             * @enum {string|null}
             */
            rejection_reason?: "empty" | "too_large" | "size_mismatch" | "content_mismatch" | null;
            /** Format: date-time */
            created_at: string;
        };
        SourceGroup: {
            group_id: components["schemas"]["SourceGroupId"];
            name: string;
            description?: string | null;
            /** @description Data-access roles allowed to use the group; empty means every user of the tenant. */
            allowed_roles: components["schemas"]["DataAccessRoles"];
            endpoints: components["schemas"]["SourceEndpoint"][];
            files: components["schemas"]["SourceFile"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        SourceGroupList: {
            data: components["schemas"]["SourceGroup"][];
        };
        SourceGroupSaveRequest: {
            group_id?: components["schemas"]["SourceGroupId"];
            name?: string;
            description?: string | null;
            allowed_roles?: components["schemas"]["DataAccessRoles"];
            endpoints?: components["schemas"]["SourceEndpoint"][];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        } & ({
            group_id: components["schemas"]["SourceGroupId"];
        } | {
            name: string;
        });
        SourceUploadUrlRequest: {
            group_id: components["schemas"]["SourceGroupId"];
            file_name: components["schemas"]["FileName"];
            /** @enum {string} */
            content_type: "application/pdf" | "text/plain" | "text/markdown" | "text/html" | "text/csv" | "application/json" | "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
            /** Format: int64 */
            size_bytes?: number;
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        SourceUploadUrl: components["schemas"]["PresignedUpload"] & {
            group_id: components["schemas"]["SourceGroupId"];
            file_id: components["schemas"]["SourceFileId"];
        };
        SourceGroupDeleteRequest: {
            group_id: components["schemas"]["SourceGroupId"];
            /** @default false */
            purge_files?: boolean;
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        DeletedSourceGroup: {
            group_id: components["schemas"]["SourceGroupId"];
            /** @constant */
            deleted: true;
            /** Format: int32 */
            files_purged: number;
        };
        SourceFileDeleteRequest: {
            group_id: components["schemas"]["SourceGroupId"];
            file_id: components["schemas"]["SourceFileId"];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        DeletedSourceFile: {
            group_id: components["schemas"]["SourceGroupId"];
            file_id: components["schemas"]["SourceFileId"];
            /** @constant */
            deleted: true;
        };
        HistoryQuery: {
            user_id?: components["schemas"]["ActorId"];
            mode?: components["schemas"]["Mode"];
            date_from?: components["schemas"]["CalendarDate"];
            date_to?: components["schemas"]["CalendarDate"];
            confidence_level?: components["schemas"]["ConfidenceLevel"];
            review_state?: components["schemas"]["ReviewState"];
            /**
             * @description Only the record of this validation: a page of one record, or of none when it does not
             *     exist, has expired or is not visible to the caller. The other filters still apply.
             */
            validation_id?: components["schemas"]["ValidationId"];
            limit?: components["schemas"]["PageLimit"];
            cursor?: components["schemas"]["Cursor"];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        Actor: {
            type: components["schemas"]["ActorType"];
            id: components["schemas"]["ActorId"];
            name?: string | null;
            role: components["schemas"]["Role"];
        };
        UserCorrection: {
            /** @description What was corrected, for example `claim:0` or `answer`. */
            element: string;
            action: components["schemas"]["CorrectionAction"];
            note: string;
        };
        ReviewEntry: {
            action: components["schemas"]["ReviewAction"];
            from_state: components["schemas"]["ReviewState"];
            to_state: components["schemas"]["ReviewState"];
            actor: components["schemas"]["Actor"];
            /** Format: date-time */
            at: string;
            note?: string | null;
            external_reference?: string | null;
            corrections?: components["schemas"]["UserCorrection"][];
        };
        /** @description A validation as kept in history (until `expires_at`). */
        ValidationRecord: {
            validation_id: components["schemas"]["ValidationId"];
            mode: components["schemas"]["Mode"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            question: string;
            user: components["schemas"]["Actor"];
            severity: components["schemas"]["Severity"];
            confidence_level: components["schemas"]["ConfidenceLevel"];
            /** Format: int32 */
            issue_count: number;
            issues: string[];
            findings?: components["schemas"]["Finding"][];
            /** Format: int32 */
            source_conflict_count: number;
            /** @description The source groups used (skipped groups are not listed). */
            source_groups: components["schemas"]["SourceGroupId"][];
            /** @description The first 500 characters of the checked or generated answer. */
            output_excerpt: string;
            /**
             * @description The checked or generated answer, whole (an answer longer than 50,000 characters, which only
             *     a generated one can be, is kept to its first 50,000); `claims` offsets refer to it. Absent
             *     on records made before the history kept it: `output_excerpt` is then all there is.
             */
            output?: string;
            /**
             * @description The validation's claims with their evidence, in order of appearance, as the validation
             *     answered them, bounded so that a record stays far below the store's item size: each claim
             *     keeps at most its first 3 evidence spans (each span's text cut to 1,000 characters, as
             *     always), and claims are kept from the first while together they take at most 256 KiB of
             *     JSON; the rest are left out (the findings still name them by `claim_index`). Claims past
             *     the end of `output` are left out with them. Absent on records made before the history
             *     kept claims.
             */
            claims?: components["schemas"]["Claim"][];
            /**
             * @description The sources the validation used, by reference and content hash (never their content), as
             *     the validation answered them: every source a kept claim's evidence cites, then the others
             *     in their order, at most 200 in all. Absent on records made before the history kept them.
             */
            sources?: components["schemas"]["SourceUsed"][];
            /** @description The corrections of the review action `edit` (empty until a reviewer edits), as the webhook payload names them. */
            user_corrections: components["schemas"]["UserCorrection"][];
            review: {
                required: boolean;
                state: components["schemas"]["ReviewState"];
                history: components["schemas"]["ReviewEntry"][];
            };
        };
        ValidationRecordPage: components["schemas"]["PageInfo"] & {
            data: components["schemas"]["ValidationRecord"][];
        };
        PageInfo: {
            has_more: boolean;
            next_cursor: components["schemas"]["Cursor"] | null;
        };
        /** @description A review action and the facts it requires, one shape per kind of action. */
        ReviewRequest: components["schemas"]["ReviewDecisionRequest"] | components["schemas"]["ReviewEditRequest"] | components["schemas"]["ReviewHandoffRequest"] | components["schemas"]["ExternalReviewDecisionRequest"];
        ReviewNote: string;
        /** @description The case id in the external review system. */
        ExternalReference: string;
        /** @description Approve or reject a validation pending review; a note is required. */
        ReviewDecisionRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "approve" | "reject";
            note: components["schemas"]["ReviewNote"];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        /** @description Record a reviewer's corrections; a note and at least one correction are required. */
        ReviewEditRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "edit";
            note: components["schemas"]["ReviewNote"];
            corrections: components["schemas"]["UserCorrection"][];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        /** @description Hand the review to an external system; its case reference is required. */
        ReviewHandoffRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "handoff";
            external_reference: components["schemas"]["ExternalReference"];
            note?: components["schemas"]["ReviewNote"];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        /** @description Record the external system's decision on a handed-off validation. */
        ExternalReviewDecisionRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "external_approve" | "external_reject";
            external_reference?: components["schemas"]["ExternalReference"];
            note?: components["schemas"]["ReviewNote"];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        ModeCounts: {
            /** Format: int32 */
            validate: number;
            /** Format: int32 */
            generate: number;
            /** Format: int32 */
            validate_and_fix: number;
        };
        ReviewStateCounts: {
            /** Format: int32 */
            pending_review: number;
            /** Format: int32 */
            approved: number;
            /** Format: int32 */
            rejected: number;
            /** Format: int32 */
            edited: number;
            /** Format: int32 */
            handed_off: number;
            /** Format: int32 */
            external_approved: number;
            /** Format: int32 */
            external_rejected: number;
        };
        Stats: {
            customer_id: components["schemas"]["CustomerId"];
            /** Format: date-time */
            generated_at: string;
            validations: {
                /**
                 * Format: int32
                 * @description Validations since the start of the current UTC month.
                 */
                this_month: number;
                /**
                 * Format: int32
                 * @description Validations in retained history.
                 */
                total: number;
                /** Format: int32 */
                with_issues: number;
                by_mode: components["schemas"]["ModeCounts"];
            };
            reviews: components["schemas"]["ReviewStateCounts"];
            sources: {
                /** Format: int32 */
                groups: number;
                /** Format: int32 */
                files: number;
                /** Format: int64 */
                bytes: number;
            };
            templates: {
                /** Format: int32 */
                total: number;
                /** Format: int32 */
                active: number;
            };
        };
        AnalyticsQuery: {
            date_from?: components["schemas"]["CalendarDate"];
            date_to?: components["schemas"]["CalendarDate"];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        SeverityCounts: {
            /** Format: int32 */
            none: number;
            /** Format: int32 */
            low: number;
            /** Format: int32 */
            medium: number;
            /** Format: int32 */
            high: number;
            /** Format: int32 */
            critical: number;
        };
        ConfidenceCounts: {
            /** Format: int32 */
            high: number;
            /** Format: int32 */
            medium: number;
            /** Format: int32 */
            low: number;
        };
        CategoryCounts: {
            /** Format: int32 */
            contradicted_claim: number;
            /** Format: int32 */
            unsupported_claim: number;
            /** Format: int32 */
            source_conflict: number;
            /** Format: int32 */
            incomplete_answer: number;
            /** Format: int32 */
            source_unavailable: number;
            /** Format: int32 */
            verifier_unavailable: number;
        };
        /**
         * @description The engine's verdict against the reviewers' on validations whose review is decided. The engine
         *     flagged a validation when it has a finding that is an issue or was fixed; the reviewers found it
         *     wrong when they rejected or edited it (or the external review rejected it), right when they
         *     approved it (or the external review approved it). A handed-off case counts once its external
         *     decision is recorded.
         */
        AgreementCounts: {
            /**
             * Format: int32
             * @description Decided reviews counted.
             */
            decisions: number;
            /**
             * Format: int32
             * @description Flagged, and the reviewers found it wrong (a true flag).
             */
            flagged_wrong: number;
            /**
             * Format: int32
             * @description Flagged, and the reviewers approved it: each flag was false.
             */
            flagged_right: number;
            /**
             * Format: int32
             * @description Not flagged, and the reviewers found it wrong: a miss.
             */
            unflagged_wrong: number;
            /**
             * Format: int32
             * @description Not flagged, and approved.
             */
            unflagged_right: number;
        };
        AgreementRates: {
            /** @description Flagged and wrong over flagged; null when nothing was flagged. */
            precision: number | null;
            /** @description Flagged and wrong over wrong; null when nothing was found wrong. */
            recall: number | null;
        };
        /**
         * @description The findings of one category on decided validations: `confirmed` when the reviewers found the
         *     validation wrong (for an edit, when a correction names the finding's claim, `claim:<index>`, or
         *     the finding concerns no claim), `overturned` otherwise.
         */
        CategoryAgreement: {
            /** Format: int32 */
            confirmed: number;
            /** Format: int32 */
            overturned: number;
            /** @description Confirmed over both; null when there were none. */
            precision: number | null;
        };
        /**
         * @description How often the engine was right by this tenant's own reviewers, over the validations made in the range
         *     whose review is decided (at most 50,000 of them, the newest first): the confusion table, the
         *     precision and recall of flags, by finding category and by month of the validation. Only the
         *     tenant's own decisions count; a deleted validation no longer does.
         */
        EngineAgreement: components["schemas"]["AgreementCounts"] & components["schemas"]["AgreementRates"] & {
            by_category: {
                contradicted_claim: components["schemas"]["CategoryAgreement"];
                unsupported_claim: components["schemas"]["CategoryAgreement"];
                source_conflict: components["schemas"]["CategoryAgreement"];
                incomplete_answer: components["schemas"]["CategoryAgreement"];
                source_unavailable: components["schemas"]["CategoryAgreement"];
                verifier_unavailable: components["schemas"]["CategoryAgreement"];
            };
            /** @description One entry per calendar month (UTC) of the range, oldest first. */
            monthly: ({
                /** @example 2026-11 */
                month: string;
            } & components["schemas"]["AgreementCounts"] & components["schemas"]["AgreementRates"])[];
        };
        /**
         * @description An operating point fitted to this tenant's own decided reviews (tenant file `engine.calibration`, decision
         *     S106), over all of them that recorded the answer's risk (the newest 50,000 at most), whatever the range asked
         *     for. The decisions are put in time order; a risk threshold reaching `target_precision` is fitted on the older
         *     70% and measured on the newer 30% beside the current point (what the validations were flagged with). It is
         *     suggested only when it beats the current point there (higher precision, or as high with higher recall), and
         *     is then fitted again on every decision. In mode `suggest` a suggestion changes nothing by itself (an admin
         *     applies it with `POST /api/v1/engine/operating-point`); in mode `apply` the server applies it (decision S113).
         */
        Calibration: {
            /**
             * @description The tenant file's `engine.calibration.mode`.
             * @enum {string}
             */
            mode: "off" | "suggest" | "apply";
            /**
             * @description `too_few_decisions`: fewer decided reviews than `engine.calibration.min_decisions`, or fewer than
             *     `min_each` found right or wrong; `no_better_point`: no threshold reached the target on the older
             *     decisions, or the one that did was not better on the newer ones, or it is the point in force.
             * @enum {string}
             */
            status: "off" | "too_few_decisions" | "no_better_point" | "suggested";
            target_precision: number;
            /**
             * @description The `supported_score` new validations use now: the point applied to the tenant when one is in force,
             *     else the tenant file's `engine.supported_score` (0.5 unless the file sets it).
             */
            current_supported_score: number;
            /**
             * Format: int32
             * @description Decided reviews with a recorded risk; 0 when `mode` is `off`.
             */
            decisions: number;
            suggested: {
                /** @description The suggested `engine.supported_score` (one minus the fitted risk threshold). */
                supported_score: number;
                /**
                 * Format: int32
                 * @description The older decisions the threshold was fitted on.
                 */
                fitted_on: number;
                /**
                 * Format: int32
                 * @description The newer decisions both points were measured on.
                 */
                measured_on: number;
                current: components["schemas"]["AgreementRates"];
                fitted: components["schemas"]["AgreementRates"];
            } | null;
        };
        /**
         * @description What an applied operating point rests on: the point in force before and the one applied, the target
         *     precision, the tenant's decided reviews it was fitted on (in time order, the older 70%) and measured on
         *     (the newer 30%), and the precision and recall of flags on those newer decisions: as the validations were
         *     flagged (`previous`) and with the fitted point (`fitted`), rounded to 4 decimals.
         */
        OperatingPointFit: {
            /** @description The `supported_score` in force before. */
            previous_supported_score: number;
            /** @description The `supported_score` applied. */
            supported_score: number;
            target_precision: number;
            /**
             * Format: int32
             * @description Decided reviews with a recorded risk that the point rests on.
             */
            decisions: number;
            /** Format: int32 */
            fitted_on: number;
            /** Format: int32 */
            measured_on: number;
            previous: components["schemas"]["AgreementRates"];
            fitted: components["schemas"]["AgreementRates"];
        };
        /**
         * @description The tenant's operating point in force: the `supported_score` new validations use, whether it was fitted to
         *     the tenant's own decided reviews, when it was applied and the figures it rests on (null when the tenant
         *     file's `engine.supported_score` is in force).
         */
        OperatingPoint: {
            supported_score: number;
            fitted_to_tenant: boolean;
            /** Format: date-time */
            applied_at: string | null;
            /**
             * @description The tenant file's `engine.calibration.mode`.
             * @enum {string}
             */
            calibration: "off" | "suggest" | "apply";
            fit: components["schemas"]["OperatingPointFit"] | null;
        };
        Analytics: {
            customer_id: components["schemas"]["CustomerId"];
            date_from: components["schemas"]["CalendarDate"];
            date_to: components["schemas"]["CalendarDate"];
            /** Format: date-time */
            generated_at: string;
            totals: {
                /** Format: int32 */
                validations: number;
                /** Format: int32 */
                with_issues: number;
                issue_rate: number;
                /** Format: int32 */
                issues: number;
                /**
                 * Format: int32
                 * @description Source conflicts found, summed over the validations.
                 */
                source_conflicts: number;
                /** @description Share of the validations with at least one source conflict. */
                source_conflict_rate: number;
            };
            by_mode: components["schemas"]["ModeCounts"];
            by_severity: components["schemas"]["SeverityCounts"];
            by_confidence_level: components["schemas"]["ConfidenceCounts"];
            /** @description Findings by category, counting those that are issues or were fixed (not `passed`). */
            by_category: components["schemas"]["CategoryCounts"];
            /** @description The review state, now, of the validations made in the range. */
            reviews: components["schemas"]["ReviewStateCounts"];
            /**
             * @description Time from a validation to the decision that closed its review (`approve`, `reject`, `edit`,
             *     `external_approve`, `external_reject`), for the validations made in the range.
             */
            time_to_decision: {
                /** Format: int32 */
                decisions: number;
                /** @description Null when nothing was decided. */
                mean_seconds: number | null;
                /** @description Null when nothing was decided. */
                max_seconds: number | null;
            };
            engine_agreement: components["schemas"]["EngineAgreement"];
            calibration: components["schemas"]["Calibration"];
            daily: {
                date: components["schemas"]["CalendarDate"];
                /** Format: int32 */
                validations: number;
                /** Format: int32 */
                with_issues: number;
                by_mode: components["schemas"]["ModeCounts"];
                by_severity: components["schemas"]["SeverityCounts"];
                by_confidence_level: components["schemas"]["ConfidenceCounts"];
                /** @description The day's validations with a decided review, the engine against the reviewers. */
                engine_agreement: components["schemas"]["AgreementCounts"];
            }[];
        };
        AuditQuery: {
            kinds?: components["schemas"]["AuditEventKind"][];
            actor_id?: components["schemas"]["ActorId"];
            validation_id?: components["schemas"]["ValidationId"];
            date_from?: components["schemas"]["CalendarDate"];
            date_to?: components["schemas"]["CalendarDate"];
            limit?: components["schemas"]["PageLimit"];
            cursor?: components["schemas"]["Cursor"];
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        SourceReference: {
            reference: string;
            sha256: components["schemas"]["Sha256"];
        };
        /** @description Sizes of a validation request, never its text. */
        RequestSummary: {
            /** Format: int32 */
            question_chars: number;
            /** Format: int32 */
            response_chars: number;
            /** Format: int32 */
            source_group_count: number;
            /** Format: int32 */
            url_count: number;
            /** Format: int32 */
            inline_text_chars: number;
        };
        /**
         * @description What every audit event carries, whatever its kind. `sequence` numbers a tenant's events 1, 2, 3…
         *     with no gaps. `hash` is the SHA-256 of `prev_hash` followed by the event's canonical JSON
         *     (RFC 8785 JCS over every field but `hash` and `expires_at`), chaining each event to the one
         *     before it; the first event's `prev_hash` is 64 zeros. `expires_at` is fixed when the event is
         *     written: a later change of the tenant's retention applies to new events only.
         */
        AuditEventBase: {
            event_id: components["schemas"]["AuditEventId"];
            /** Format: int64 */
            sequence: number;
            customer_id: components["schemas"]["CustomerId"];
            /** Format: date-time */
            occurred_at: string;
            actor: components["schemas"]["Actor"];
            validation_id: components["schemas"]["ValidationId"] | null;
            prev_hash: components["schemas"]["Sha256"];
            hash: components["schemas"]["Sha256"];
            /**
             * Format: date-time
             * @description When retention removes the event.
             */
            expires_at: string;
        };
        /** @description A validation was recorded. Its facts are sizes and references, never the request's text. */
        ValidationCreatedEvent: components["schemas"]["AuditEventBase"] & {
            /** @enum {string} */
            kind: "validation_created";
            data: {
                mode: components["schemas"]["Mode"];
                request_summary: components["schemas"]["RequestSummary"];
                source_groups: components["schemas"]["SourceGroupId"][];
                sources: components["schemas"]["SourceReference"][];
                confidence_level: components["schemas"]["ConfidenceLevel"];
                /** Format: int32 */
                issue_count: number;
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "validation_created";
        };
        /** @description The workflow put a validation in review (the actor is `system`). */
        ReviewRequiredEvent: components["schemas"]["AuditEventBase"] & {
            /** @enum {string} */
            kind: "review_required";
            data: {
                review_state: components["schemas"]["ReviewState"];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "review_required";
        };
        /** @description A reviewer approved or rejected a validation, with a note. */
        ReviewDecisionEvent: components["schemas"]["AuditEventBase"] & {
            /** @enum {string} */
            kind: "approved" | "rejected";
            data: {
                note: string;
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "approved" | "rejected";
        };
        /** @description A reviewer corrected a validation's answer, with a note and the corrections. */
        ReviewEditedEvent: components["schemas"]["AuditEventBase"] & {
            /** @enum {string} */
            kind: "edited";
            data: {
                note: string;
                corrections: components["schemas"]["UserCorrection"][];
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "edited";
        };
        /** @description A validation was handed to an outside review system, or that system decided it. */
        ExternalReviewEvent: components["schemas"]["AuditEventBase"] & {
            /** @enum {string} */
            kind: "review_handed_off" | "external_review_approved" | "external_review_rejected";
            data: {
                external_reference: string;
                note?: string;
            };
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "review_handed_off" | "external_review_approved" | "external_review_rejected";
        };
        /** @description An admin deleted the tenant's account (the actor); the last event of the tenant's trail. It has no facts. */
        AccountDeletedEvent: components["schemas"]["AuditEventBase"] & {
            /** @enum {string} */
            kind: "account_deleted";
            data: Record<string, never>;
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "account_deleted";
        };
        /**
         * @description The tenant's operating point was fitted to its own decided reviews and applied (actor: the admin, or
         *     `system` when calibration mode `apply` fitted it). Its facts are figures, never content.
         */
        OperatingPointAppliedEvent: components["schemas"]["AuditEventBase"] & {
            /** @enum {string} */
            kind: "operating_point_applied";
            data: components["schemas"]["OperatingPointFit"];
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "operating_point_applied";
        };
        /**
         * @description An audit event as stored (the `raw` profile): the fields of `AuditEventBase`, and the facts
         *     its `kind` records in `data` (one shape per kind; nothing else is recorded).
         */
        AuditEvent: components["schemas"]["ValidationCreatedEvent"] | components["schemas"]["ReviewRequiredEvent"] | components["schemas"]["ReviewDecisionEvent"] | components["schemas"]["ReviewEditedEvent"] | components["schemas"]["ExternalReviewEvent"] | components["schemas"]["AccountDeletedEvent"] | components["schemas"]["OperatingPointAppliedEvent"];
        AuditEventPage: components["schemas"]["PageInfo"] & {
            data: components["schemas"]["AuditEvent"][];
        };
        AuditExportRequest: {
            /**
             * @default json
             * @enum {string}
             */
            format?: "json" | "csv";
            /**
             * Format: int32
             * @description Rolling window in days ending today (UTC), used when no explicit date is given.
             * @default 30
             */
            days?: number;
            date_from?: components["schemas"]["CalendarDate"];
            date_to?: components["schemas"]["CalendarDate"];
            /**
             * @default enterprise_v1
             * @enum {string}
             */
            profile?: "enterprise_v1" | "raw";
            customer_id?: components["schemas"]["CustomerId"];
            api_key?: components["schemas"]["ApiKey"];
        };
        /** @description The event's facts without free text; for kinds that carry a note, the note is reduced to `note_present` and `note_chars`. */
        PayloadSummary: {
            mode?: components["schemas"]["Mode"];
            request_summary?: components["schemas"]["RequestSummary"];
            /** Format: int32 */
            source_group_count?: number;
            source_refs?: components["schemas"]["SourceReference"][];
            confidence_level?: components["schemas"]["ConfidenceLevel"];
            /** Format: int32 */
            issue_count?: number;
            review_state?: components["schemas"]["ReviewState"];
            note_present?: boolean;
            /** Format: int32 */
            note_chars?: number;
            /** Format: int32 */
            correction_count?: number;
            external_reference?: string;
            previous_supported_score?: number;
            supported_score?: number;
        };
        /**
         * @description An event of the `enterprise_v1` export. `hash` and `prev_hash` are those of the stored event,
         *     so the chain is verified on the `raw` profile (or `POST /api/v1/audit`); here they let a
         *     consumer match the two exports.
         */
        EnterpriseAuditEvent: {
            event_id: components["schemas"]["AuditEventId"];
            /** Format: int64 */
            sequence: number;
            kind: components["schemas"]["AuditEventKind"];
            /** Format: date-time */
            occurred_at: string;
            /** @description Keyed pseudonym of the actor (HMAC-SHA-256 with a per-tenant secret), stable across exports and not reversible. */
            actor_ref: string;
            actor_role: components["schemas"]["Role"];
            actor_type: components["schemas"]["ActorType"];
            validation_id: components["schemas"]["ValidationId"] | null;
            payload_summary: components["schemas"]["PayloadSummary"];
            prev_hash: components["schemas"]["Sha256"];
            hash: components["schemas"]["Sha256"];
        };
        AuditExport: components["schemas"]["EnterpriseAuditExport"] | components["schemas"]["RawAuditExport"];
        EnterpriseAuditExport: {
            /** @constant */
            schema_version: "1.0";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            profile: "enterprise_v1";
            customer_id: components["schemas"]["CustomerId"];
            /** Format: date-time */
            generated_at: string;
            date_from: components["schemas"]["CalendarDate"];
            date_to: components["schemas"]["CalendarDate"];
            events: components["schemas"]["EnterpriseAuditEvent"][];
        };
        RawAuditExport: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            profile: "raw";
            customer_id: components["schemas"]["CustomerId"];
            /** Format: date-time */
            generated_at: string;
            date_from: components["schemas"]["CalendarDate"];
            date_to: components["schemas"]["CalendarDate"];
            events: components["schemas"]["AuditEvent"][];
        };
        SystemCard: {
            /** @constant */
            schema_version: "1.0";
            service: {
                name: string;
                version: string;
            };
            /** Format: date-time */
            generated_at: string;
            purpose: string;
            capabilities: string[];
            /** @description What the service does not do. */
            not_done: string[];
            validation_method: {
                name: string;
                version: string;
                description: string;
                /**
                 * @description The model-backed verifier beside the checks for this tenant: its tenant file's `engine.verifier`, or
                 *     the deployment's default (`ENGINE_VERIFIER`, `onnx` unless set). Results report the same in
                 *     `metadata.engine.verifier` and `verifier_model` (decision S118).
                 */
                verifier: {
                    /** @enum {string} */
                    name: "none" | "openai" | "onnx";
                    /** @description The judge's model or Azure deployment name, or `local` for the entailment model. */
                    model?: string;
                    /** @description What the verifier does with the tenant's claims, and whether any text leaves the deployment. */
                    description: string;
                };
            };
            /**
             * @description Where this tenant's engine flags a claim. `supported_score` is the one new validations use: a point fitted
             *     to the tenant's own decided reviews and applied (`fitted_to_tenant` true, `applied_at` when), or else the
             *     tenant file's `engine.supported_score` (0.5, the point fitted on the team's data, unless the file sets
             *     it). A point is applied by an admin (`POST /api/v1/engine/operating-point`) or, in calibration mode
             *     `apply`, by the server; the file's value is back in force when the mode is `off` or the file's
             *     `engine.supported_score` changed since (decision S113).
             */
            operating_point: {
                supported_score: number;
                fitted_to_tenant: boolean;
                /**
                 * Format: date-time
                 * @description When the point in force was applied; null when it is the file's.
                 */
                applied_at: string | null;
                /**
                 * @description The tenant file's `engine.calibration.mode`.
                 * @enum {string}
                 */
                calibration: "off" | "suggest" | "apply";
            };
            known_limitations: string[];
            data_handling: {
                audit_trail_records: string[];
                audit_trail_never_records: string[];
                /** Format: int32 */
                history_retention_days: number;
                /** Format: int32 */
                audit_retention_days: number;
            };
            region: string;
            schema_versions: {
                api: string;
                audit_event: string;
                /** @description The `schema_version` of the `enterprise_v1` audit export. */
                audit_export: string;
                webhook: string;
            };
        };
        /** @enum {string} */
        UserStatus: "active" | "disabled";
        User: {
            user_id: components["schemas"]["UserId"];
            /** Format: email */
            email: string;
            name: string;
            role: components["schemas"]["Role"];
            data_access_roles: components["schemas"]["DataAccessRoles"];
            status: components["schemas"]["UserStatus"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            last_login_at: string | null;
        };
        UserPage: components["schemas"]["PageInfo"] & {
            data: components["schemas"]["User"][];
        };
        UserQuery: {
            role?: components["schemas"]["Role"];
            limit?: components["schemas"]["PageLimit"];
            cursor?: components["schemas"]["Cursor"];
        };
        UserSaveRequest: {
            user_id?: components["schemas"]["UserId"];
            /** Format: email */
            email?: string;
            name?: string;
            role?: components["schemas"]["Role"];
            data_access_roles?: components["schemas"]["DataAccessRoles"];
            status?: components["schemas"]["UserStatus"];
            password?: string;
        } & ({
            user_id: components["schemas"]["UserId"];
        } | {
            /** Format: email */
            email: string;
            role: components["schemas"]["Role"];
        });
        UserDeleteRequest: {
            user_id: components["schemas"]["UserId"];
        };
        DeletedUser: {
            user_id: components["schemas"]["UserId"];
            /** @constant */
            deleted: true;
        };
        BillingPortalRequest: {
            /** Format: uri */
            return_url?: string;
        };
        BillingPortalSession: {
            /** Format: uri */
            url: string;
            /** Format: date-time */
            expires_at: string;
        };
        AccountDeleteRequest: {
            /** @description Exactly `DELETE <customer_id>`. */
            confirmation: string;
        };
        DeletedAccount: {
            customer_id: components["schemas"]["CustomerId"];
            /** @constant */
            deleted: true;
            /** Format: date-time */
            deleted_at: string;
        };
        /** @description Payload of the `service.validation.findings` webhook. */
        ValidationFindingsEvent: {
            event_id: components["schemas"]["WebhookEventId"];
            /** @constant */
            event_type: "service.validation.findings";
            /**
             * Format: int64
             * @description Unix time in seconds when the validation completed.
             */
            timestamp: number;
            customer_id: components["schemas"]["CustomerId"];
            customer_name: string;
            validation_id: components["schemas"]["ValidationId"];
            mode: components["schemas"]["Mode"];
            question: string;
            severity: components["schemas"]["Severity"];
            confidence_level: components["schemas"]["ConfidenceLevel"];
            /** Format: int32 */
            issue_count: number;
            issues: string[];
            findings: {
                category: components["schemas"]["FindingCategory"];
                status: components["schemas"]["FindingStatus"];
                title: string;
                description: string;
                severity: components["schemas"]["Severity"];
            }[];
            /** @description Corrections recorded so far; empty at validation time (reviews come later). */
            user_corrections: components["schemas"]["UserCorrection"][];
            /** Format: int32 */
            source_conflict_count: number;
            output_excerpt: string;
            user: {
                user_id: string;
                name: string;
                role: components["schemas"]["Role"];
            };
        };
        HealthStatus: {
            /** @enum {string} */
            status: "ok";
        };
        ReadinessStatus: {
            /** @enum {string} */
            status: "ok" | "unavailable";
            /** @description Present and true once the process was told to stop; it answers 503 from then on while it finishes the requests in flight. */
            shutting_down?: boolean;
            checks: {
                /** @enum {string} */
                cosmos: "ok" | "unavailable";
                /** @enum {string} */
                storage: "ok" | "unavailable";
            };
        };
    };
    responses: {
        /**
         * @description The request is invalid. Codes: `invalid_request` (a field is invalid; see `errors`),
         *     `malformed_json`; `malformed_request` when the HTTP parser refuses the request itself (bad
         *     header bytes, conflicting lengths; then without `instance`).
         */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/invalid_request",
                 *       "title": "Invalid request",
                 *       "status": 400,
                 *       "detail": "The request body has 1 invalid field.",
                 *       "code": "invalid_request",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J",
                 *       "errors": [
                 *         {
                 *           "pointer": "/chatbot_response",
                 *           "detail": "must have required property 'chatbot_response'"
                 *         }
                 *       ]
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description No valid credentials. Codes: `unauthenticated` (none sent), `invalid_token` (bad signature,
         *     issuer, audience or algorithm), `token_expired`, `invalid_api_key`.
         */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                /** @description The authentication scheme expected. */
                "WWW-Authenticate"?: "Bearer";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Email, password or customer unknown or wrong. Code: `invalid_credentials`. */
        InvalidCredentials: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/invalid_credentials",
                 *       "title": "Invalid credentials",
                 *       "status": 401,
                 *       "detail": "The email, password or customer id is incorrect, or the account was closed.",
                 *       "code": "invalid_credentials",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The caller may not do this. Code: `insufficient_role` (the caller's role is below the
         *     operation's `x-required-role`, or an identity provider's token maps to no role).
         */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/insufficient_role",
                 *       "title": "Forbidden",
                 *       "status": 403,
                 *       "detail": "This operation needs the admin role; the caller has user.",
                 *       "code": "insufficient_role",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description No such object in the caller's tenant (another tenant's objects are reported as not found).
         *     Code: `not_found`.
         */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/not_found",
                 *       "title": "Not found",
                 *       "status": 404,
                 *       "detail": "No template tpl_01JD3XC4D5E6F7G8H9J0K1M2N3 exists.",
                 *       "code": "not_found",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The request conflicts with an earlier one that sent the same `Idempotency-Key`. Codes:
         *     `idempotency_key_reused` (the key came with a different request), `idempotency_in_progress`
         *     (the first request with the key still runs; retry after `Retry-After` seconds).
         */
        Conflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                /** @description With `idempotency_in_progress`, the seconds until the first request's lease on the key would run out. */
                "Retry-After"?: number;
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/idempotency_key_reused",
                 *       "title": "Conflict",
                 *       "status": 409,
                 *       "detail": "This Idempotency-Key was already used for a different request; send a new key with a new request.",
                 *       "code": "idempotency_key_reused",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The request body exceeds 1 MiB (8 KiB on operations without credentials) or has more than
         *     10 000 object members. Code: `payload_too_large`.
         */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/payload_too_large",
                 *       "title": "Payload too large",
                 *       "status": 413,
                 *       "detail": "The request body exceeds the limit of 1048576 bytes.",
                 *       "code": "payload_too_large",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description Too many requests. Code: `rate_limited` (the tenant's limit, or a caller's own sub-limit).
         *     Wait `Retry-After` seconds.
         */
        TooManyRequests: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/rate_limited",
                 *       "title": "Rate limit exceeded",
                 *       "status": 429,
                 *       "detail": "The tenant's limit of 120 requests per 60 seconds is used up; retry in 17 seconds.",
                 *       "code": "rate_limited",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description An unexpected error; nothing about it is disclosed beyond the request id. Code: `internal_error`. */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/internal_error",
                 *       "title": "Internal error",
                 *       "status": 500,
                 *       "detail": "An unexpected error occurred. Quote the request id when reporting it.",
                 *       "code": "internal_error",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The request's headers or body did not arrive in time (the server's header and request
         *     timeouts). Sent by the HTTP layer before the operation is known, so it has no `instance`.
         *     Code: `request_timeout`.
         */
        RequestTimeout: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/request_timeout",
                 *       "title": "Request timeout",
                 *       "status": 408,
                 *       "detail": "The request was not received in time.",
                 *       "code": "request_timeout",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The body is not UTF-8 JSON: a non-empty body without `Content-Type: application/json`
         *     (or another `charset`), or a body sent with any `Content-Encoding`. Code: `unsupported_media_type`.
         */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/unsupported_media_type",
                 *       "title": "Unsupported media type",
                 *       "status": 415,
                 *       "detail": "Send the request body as UTF-8 JSON (Content-Type: application/json).",
                 *       "instance": "/api/v1/validate",
                 *       "code": "unsupported_media_type",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The request headers exceed 16 KiB. Sent by the HTTP layer before the operation is known, so
         *     it has no `instance`. Code: `headers_too_large`.
         */
        HeadersTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/headers_too_large",
                 *       "title": "Request header fields too large",
                 *       "status": 431,
                 *       "detail": "The request headers exceed 16 KiB.",
                 *       "code": "headers_too_large",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The data store is throttling or unavailable (after the store client's own retries), did not
         *     answer within the server's store timeout (10 seconds by default), or the request did not
         *     complete within the server's request timeout (120 seconds by default); retry after
         *     `Retry-After` seconds, with the same `Idempotency-Key`. Code: `service_unavailable`.
         */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "https://groundcheck.dev/problems/service_unavailable",
                 *       "title": "Service unavailable",
                 *       "status": 503,
                 *       "detail": "The data store is busy or unavailable; retry in 5 seconds.",
                 *       "instance": "/api/v1/validate",
                 *       "code": "service_unavailable",
                 *       "request_id": "req_01JD3X8Q9A1B2C3D4E5F6G7H8J"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description The template id. */
        TemplateIdPath: components["schemas"]["TemplateId"];
        /** @description The validation id. */
        ValidationIdPath: components["schemas"]["ValidationId"];
        /**
         * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
         *     same key within 24 hours replays the first response (its status and body, 4xx included) with
         *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
         *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
         *     409 `idempotency_key_reused`.
         *
         *     While the first request runs it holds the key on a lease that it renews (by default every
         *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
         *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
         *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
         *     out and the next retry takes the key over. What a request creates is named when its key is
         *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
         *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
         *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
         *     would; it acts anew only when nothing was written. A review decision keeps its answer with
         *     the decision, in the same write.
         */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The request's id; quote it when reporting a problem. Also in every error body. A caller's
         *     own `X-Request-Id` (8–128 of `A-Z a-z 0-9 . _ : -`) is kept; otherwise the server makes one.
         * @example req_01JD3X8Q9A1B2C3D4E5F6G7H8J
         */
        "X-Request-Id": string;
        /**
         * @description Requests allowed per window: the tenant's window on an authenticated call, the client
         *     address's window on login. Sent on every response to a call that was counted, errors
         *     included; a call refused before it is counted (no valid credentials, a body that cannot be
         *     read) has none.
         * @example 120
         */
        "RateLimit-Limit": number;
        /**
         * @description Requests left in the current window.
         * @example 117
         */
        "RateLimit-Remaining": number;
        /**
         * @description Seconds until the current window resets.
         * @example 42
         */
        "RateLimit-Reset": number;
        /**
         * @description Seconds to wait before retrying.
         * @example 17
         */
        "Retry-After": number;
        /** @description `true` when this response is the replay of an earlier request with the same `Idempotency-Key`. */
        "Idempotent-Replayed": "true";
        /**
         * @description Suggested file name for the download.
         * @example attachment; filename="audit-acme-2026-11-01-2026-11-21.json"
         */
        "Content-Disposition": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "avery.admin@acme.example",
                 *       "password": "correct-horse-battery-staple",
                 *       "customer_id": "acme"
                 *     }
                 */
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJjaWQiOiJhY21lIiwic2VwIjowLCJpc3MiOiJ1cm46Z3JvdW5kY2hlY2s6bG9jYWwiLCJhdWQiOiJ1cm46Z3JvdW5kY2hlY2s6YXBpIiwic3ViIjoidXNyXzAxSkM5Wks0VzdRMk01VDhWMVgzQjZEOUYwIiwiaWF0IjoxNzk1MjU3NDgwLCJleHAiOjE3OTUyNjEwODB9.C38rojgc1TLoFpxDr8SDBcgEtSTUWtP0u_zOquk7EQs",
                     *       "token_type": "Bearer",
                     *       "expires_in": 3600,
                     *       "expires_at": "2026-11-21T11:38:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["InvalidCredentials"];
            /** @description The tenant signs in through its identity provider. Code: `local_login_disabled`. */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description Too many requests; wait `Retry-After` seconds. Codes: `rate_limited`, `too_many_login_attempts`. */
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CredentialsOnlyRequest"];
            };
        };
        responses: {
            /** @description The caller's identity. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "principal": {
                     *         "type": "user",
                     *         "id": "usr_01JC9ZK4W7Q2M5T8V1X3B6D9F0",
                     *         "email": "avery.admin@acme.example",
                     *         "name": "Avery Admin"
                     *       },
                     *       "customer": {
                     *         "customer_id": "acme",
                     *         "name": "Acme Corporation",
                     *         "features": {
                     *           "document_templates": true,
                     *           "audit_trail": true
                     *         }
                     *       },
                     *       "role": "admin",
                     *       "data_access_roles": [
                     *         "finance",
                     *         "hr"
                     *       ],
                     *       "authentication": "local",
                     *       "expires_at": "2026-11-21T11:38:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Me"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    validate: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidationRequest"];
            };
        };
        responses: {
            /** @description The validation result for the requested mode. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["HealthStatus"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "checks": {
                     *         "cosmos": "ok",
                     *         "storage": "ok"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ReadinessStatus"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description Not ready; a dependency does not answer, or the process is shutting down. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "unavailable",
                     *       "checks": {
                     *         "cosmos": "ok",
                     *         "storage": "unavailable"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ReadinessStatus"];
                };
            };
        };
    };
    listTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CredentialsOnlyRequest"];
            };
        };
        responses: {
            /** @description All templates. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `feature_disabled`. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTemplateUploadUrl: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Leave policy answer",
                 *       "file_name": "leave-policy-answer.docx",
                 *       "content_type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                 *       "size_bytes": 48213
                 *     }
                 */
                "application/json": components["schemas"]["TemplateUploadUrlRequest"];
            };
        };
        responses: {
            /** @description The new template's id and where to upload its file. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "template_id": "tpl_01JD3XC4D5E6F7G8H9J0K1M2N3",
                     *       "upload_url": "https://acmegroundcheck.blob.core.windows.net/templates/acme/tpl_01JD3XC4D5E6F7G8H9J0K1M2N3/leave-policy-answer.docx?sv=2025-01-05&se=2026-11-21T10%3A53%3A00Z&sr=b&sp=cw&sig=REDACTED",
                     *       "method": "PUT",
                     *       "headers": {
                     *         "x-ms-blob-type": "BlockBlob",
                     *         "Content-Type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
                     *       },
                     *       "expires_at": "2026-11-21T10:53:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TemplateUploadUrl"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `feature_disabled`. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the object's state or an earlier request. Codes: `limit_reached`, `idempotency_key_reused`, `idempotency_in_progress`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The template id. */
                id: components["parameters"]["TemplateIdPath"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CredentialsOnlyRequest"];
            };
        };
        responses: {
            /** @description The template. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `feature_disabled`. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    scanTemplate: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The template id. */
                id: components["parameters"]["TemplateIdPath"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CredentialsOnlyRequest"];
            };
        };
        responses: {
            /** @description The scanned template. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `feature_disabled`. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the object's state or an earlier request. Codes: `template_not_uploaded`, `template_scan_failed`, `idempotency_key_reused`, `idempotency_in_progress`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    saveTemplate: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The template id. */
                id: components["parameters"]["TemplateIdPath"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Leave policy answer",
                 *       "active": true,
                 *       "schema": {
                 *         "fields": [
                 *           {
                 *             "name": "employee_name",
                 *             "type": "string",
                 *             "required": true,
                 *             "description": "Full name of the employee"
                 *           },
                 *           {
                 *             "name": "leave_days",
                 *             "type": "number",
                 *             "required": true,
                 *             "description": "Paid leave days per year"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TemplateSaveRequest"];
            };
        };
        responses: {
            /** @description The saved template. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `feature_disabled`. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the object's state or an earlier request. Codes: `template_not_scanned`, `idempotency_key_reused`, `idempotency_in_progress`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteTemplate: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The template id. */
                id: components["parameters"]["TemplateIdPath"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CredentialsOnlyRequest"];
            };
        };
        responses: {
            /** @description The template is deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "template_id": "tpl_01JD3XC4D5E6F7G8H9J0K1M2N3",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": components["schemas"]["DeletedTemplate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `feature_disabled`. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listSourceGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CredentialsOnlyRequest"];
            };
        };
        responses: {
            /** @description The source groups. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceGroupList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSourceUploadUrl: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "group_id": "grp_01JD3XA1B2C3D4E5F6G7H8J9K0",
                 *       "file_name": "employee-handbook-2026.pdf",
                 *       "content_type": "application/pdf",
                 *       "size_bytes": 1048576
                 *     }
                 */
                "application/json": components["schemas"]["SourceUploadUrlRequest"];
            };
        };
        responses: {
            /** @description The new file's id and where to upload it. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "group_id": "grp_01JD3XA1B2C3D4E5F6G7H8J9K0",
                     *       "file_id": "fil_01JD3XB7C8D9E0F1G2H3J4K5M6",
                     *       "upload_url": "https://acmegroundcheck.blob.core.windows.net/sources/acme/grp_01JD3XA1B2C3D4E5F6G7H8J9K0/fil_01JD3XB7C8D9E0F1G2H3J4K5M6?sv=2025-01-05&se=2026-11-21T10%3A53%3A00Z&sr=b&sp=cw&sig=REDACTED",
                     *       "method": "PUT",
                     *       "headers": {
                     *         "x-ms-blob-type": "BlockBlob",
                     *         "Content-Type": "application/pdf"
                     *       },
                     *       "expires_at": "2026-11-21T10:53:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["SourceUploadUrl"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the object's state or an earlier request. Codes: `limit_reached`, `idempotency_key_reused`, `idempotency_in_progress`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    saveSourceGroup: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "HR policies",
                 *       "description": "Employee handbook and leave policies",
                 *       "allowed_roles": [
                 *         "hr",
                 *         "managers"
                 *       ],
                 *       "endpoints": [
                 *         {
                 *           "name": "HR records API",
                 *           "url": "https://hr-api.acme.example/search",
                 *           "authz_forwarding": {
                 *             "user_id": true,
                 *             "customer_id": false,
                 *             "data_access_roles": true,
                 *             "original_jwt": false
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["SourceGroupSaveRequest"];
            };
        };
        responses: {
            /** @description The saved group. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceGroup"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the object's state or an earlier request. Codes: `group_name_taken`, `limit_reached`, `idempotency_key_reused`, `idempotency_in_progress`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSourceGroup: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "group_id": "grp_01JD3XA1B2C3D4E5F6G7H8J9K0",
                 *       "purge_files": true
                 *     }
                 */
                "application/json": components["schemas"]["SourceGroupDeleteRequest"];
            };
        };
        responses: {
            /** @description The group is deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "group_id": "grp_01JD3XA1B2C3D4E5F6G7H8J9K0",
                     *       "deleted": true,
                     *       "files_purged": 3
                     *     }
                     */
                    "application/json": components["schemas"]["DeletedSourceGroup"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSourceFile: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "group_id": "grp_01JD3XA1B2C3D4E5F6G7H8J9K0",
                 *       "file_id": "fil_01JD3XB7C8D9E0F1G2H3J4K5M6"
                 *     }
                 */
                "application/json": components["schemas"]["SourceFileDeleteRequest"];
            };
        };
        responses: {
            /** @description The file is deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "group_id": "grp_01JD3XA1B2C3D4E5F6G7H8J9K0",
                     *       "file_id": "fil_01JD3XB7C8D9E0F1G2H3J4K5M6",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": components["schemas"]["DeletedSourceFile"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listHistory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["HistoryQuery"];
            };
        };
        responses: {
            /** @description A page of validation records. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationRecordPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    reviewValidation: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The validation id. */
                id: components["parameters"]["ValidationIdPath"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReviewRequest"];
            };
        };
        responses: {
            /** @description The updated validation record. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationRecord"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the object's state or an earlier request. Codes: `invalid_review_transition`, `idempotency_key_reused`, `idempotency_in_progress`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CredentialsOnlyRequest"];
            };
        };
        responses: {
            /** @description The tenant's counters. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "customer_id": "acme",
                     *       "generated_at": "2026-11-21T10:38:00Z",
                     *       "validations": {
                     *         "this_month": 412,
                     *         "total": 3120,
                     *         "with_issues": 517,
                     *         "by_mode": {
                     *           "validate": 2480,
                     *           "generate": 410,
                     *           "validate_and_fix": 230
                     *         }
                     *       },
                     *       "reviews": {
                     *         "pending_review": 12,
                     *         "approved": 140,
                     *         "rejected": 9,
                     *         "edited": 21,
                     *         "handed_off": 3,
                     *         "external_approved": 6,
                     *         "external_rejected": 1
                     *       },
                     *       "sources": {
                     *         "groups": 4,
                     *         "files": 37,
                     *         "bytes": 58720256
                     *       },
                     *       "templates": {
                     *         "total": 5,
                     *         "active": 3
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Stats"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAnalytics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "date_from": "2026-11-19",
                 *       "date_to": "2026-11-20"
                 *     }
                 */
                "application/json": components["schemas"]["AnalyticsQuery"];
            };
        };
        responses: {
            /** @description The analytics payload. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Analytics"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAnalyticsCsv: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "date_from": "2026-11-19",
                 *       "date_to": "2026-11-20"
                 *     }
                 */
                "application/json": components["schemas"]["AnalyticsQuery"];
            };
        };
        responses: {
            /** @description The daily series as CSV. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example date,validations,with_issues,validate,generate,validate_and_fix,severity_none,severity_low,severity_medium,severity_high,severity_critical,confidence_high,confidence_medium,confidence_low,agreement_decisions,agreement_flagged_wrong,agreement_flagged_right,agreement_unflagged_wrong,agreement_unflagged_right
                     *     2026-11-19,21,4,15,4,2,17,1,2,1,0,16,3,2,3,1,1,0,1
                     *     2026-11-20,18,2,12,3,3,16,1,1,0,0,14,3,1,1,0,0,0,1
                     */
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAuditEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "validation_id": "val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y",
                 *       "date_from": "2026-11-01",
                 *       "limit": 2
                 *     }
                 */
                "application/json": components["schemas"]["AuditQuery"];
            };
        };
        responses: {
            /** @description A page of audit events. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `feature_disabled`. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    exportAuditEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "format": "json",
                 *       "date_from": "2026-11-01",
                 *       "date_to": "2026-11-21",
                 *       "profile": "enterprise_v1"
                 *     }
                 */
                "application/json": components["schemas"]["AuditExportRequest"];
            };
        };
        responses: {
            /** @description The exported events. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditExport"];
                    /**
                     * @example schema_version,event_id,sequence,kind,occurred_at,actor_ref,actor_role,actor_type,validation_id,mode,confidence_level,issue_count,external_reference,hash
                     *     1.0,aud_01JD3Y0A1B2C3D4E5F6G7H8J9K,41,validation_created,2026-11-21T10:31:07.412Z,act_5114f197e761042c40afdc809753ff90,user,user,val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y,validate,low,1,,3f6e6ae252bc1d74924748cd5a9202fc9cbe2c4df18e9148f7af73fb1b8022be
                     *     1.0,aud_01JD3Y0B2C3D4E5F6G7H8J9K0M,42,review_required,2026-11-21T10:31:07.415Z,act_5d3c658116e2f84f038cc203c0cf0c43,admin,system,val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y,,,,,cea17087061b4645e58be5ab5dc06b6d4495e3a77415ebbee2d59db77aed630a
                     *     1.0,aud_01JD3Y0C3D4E5F6G7H8J9K0M1N,43,approved,2026-11-21T10:40:00.118Z,act_0a4393efa858af0d45c309c6ac73e5ac,admin,user,val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y,,,,,61fb6de48a0b5be8d008f2feec452365ec009a792bd623305f26be8721b06e96
                     */
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `feature_disabled`. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSystemCard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CredentialsOnlyRequest"];
            };
        };
        responses: {
            /** @description The system card. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SystemCard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `feature_disabled`. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    applyOperatingPoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["EmptyRequest"];
            };
        };
        responses: {
            /** @description The point was applied; the tenant's operating point now in force. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatingPoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No valid credentials. Codes: `unauthenticated`, `invalid_token`, `token_expired`. */
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `api_key_not_allowed`. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description Nothing to apply, or the request conflicts with an earlier one. Codes: `too_few_decisions`, `no_better_operating_point`, `calibration_off`, `idempotency_key_reused`, `idempotency_in_progress`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "role": "admin",
                 *       "limit": 50
                 *     }
                 */
                "application/json": components["schemas"]["UserQuery"];
            };
        };
        responses: {
            /** @description A page of users. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "user_id": "usr_01JC9ZK4W7Q2M5T8V1X3B6D9F0",
                     *           "email": "avery.admin@acme.example",
                     *           "name": "Avery Admin",
                     *           "role": "admin",
                     *           "data_access_roles": [
                     *             "finance",
                     *             "hr"
                     *           ],
                     *           "status": "active",
                     *           "created_at": "2026-10-02T08:15:00Z",
                     *           "updated_at": "2026-11-01T12:00:00Z",
                     *           "last_login_at": "2026-11-21T09:58:12Z"
                     *         }
                     *       ],
                     *       "has_more": false,
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["UserPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No valid credentials. Codes: `unauthenticated`, `invalid_token`, `token_expired`. */
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `api_key_not_allowed`. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    saveUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "uma.user@acme.example",
                 *       "name": "Uma User",
                 *       "role": "user",
                 *       "data_access_roles": [
                 *         "hr"
                 *       ],
                 *       "password": "a-long-initial-password"
                 *     }
                 */
                "application/json": components["schemas"]["UserSaveRequest"];
            };
        };
        responses: {
            /** @description The saved user. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "usr_01JD3XD5E6F7G8H9J0K1M2N3P4",
                     *       "email": "uma.user@acme.example",
                     *       "name": "Uma User",
                     *       "role": "user",
                     *       "data_access_roles": [
                     *         "hr"
                     *       ],
                     *       "status": "active",
                     *       "created_at": "2026-11-21T10:38:00Z",
                     *       "updated_at": "2026-11-21T10:38:00Z",
                     *       "last_login_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No valid credentials. Codes: `unauthenticated`, `invalid_token`, `token_expired`. */
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `api_key_not_allowed`. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the object's state or an earlier request. Codes: `email_taken`, `last_admin`, `idempotency_key_reused`, `idempotency_in_progress`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "usr_01JD3XD5E6F7G8H9J0K1M2N3P4"
                 *     }
                 */
                "application/json": components["schemas"]["UserDeleteRequest"];
            };
        };
        responses: {
            /** @description The user is removed. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "user_id": "usr_01JD3XD5E6F7G8H9J0K1M2N3P4",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": components["schemas"]["DeletedUser"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No valid credentials. Codes: `unauthenticated`, `invalid_token`, `token_expired`. */
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `api_key_not_allowed`. */
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description The request conflicts with the object's state or an earlier request. Codes: `last_admin`, `idempotency_key_reused`, `idempotency_in_progress`. */
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getBillingPortal: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key (for example a UUID) per logical request. A retry by the same caller with the
                 *     same key within 24 hours replays the first response (its status and body, 4xx included) with
                 *     `Idempotent-Replayed: true` instead of acting again. 5xx and 429 outcomes are not stored,
                 *     so a retry runs again. Reusing a key with a different body, or another caller's key, answers
                 *     409 `idempotency_key_reused`.
                 *
                 *     While the first request runs it holds the key on a lease that it renews (by default every
                 *     5 seconds; the lease runs out 15 seconds after the last renewal). A retry meanwhile answers
                 *     409 `idempotency_in_progress` with `Retry-After`: the seconds until the lease would run out.
                 *     When the request's process has died (or the request failed with 5xx or 429), its lease runs
                 *     out and the next retry takes the key over. What a request creates is named when its key is
                 *     first claimed (a validation's `validation_id`, a new source group's, file's, template's or
                 *     user's id), so the retry finds what the stopped request wrote: it completes what is missing
                 *     (audit events, counters, the webhook notification) and answers with it, exactly as a replay
                 *     would; it acts anew only when nothing was written. A review decision keeps its answer with
                 *     the decision, in the same write.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "return_url": "https://app.acme.example/settings/billing"
                 *     }
                 */
                "application/json": components["schemas"]["BillingPortalRequest"];
            };
        };
        responses: {
            /** @description The portal session. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://billing.example/p/session/bps_1QxYz2AbCdEfGhIj",
                     *       "expires_at": "2026-11-21T11:08:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["BillingPortalSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No valid credentials. Codes: `unauthenticated`, `invalid_token`, `token_expired`. */
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `api_key_not_allowed`. */
            403: components["responses"]["Forbidden"];
            /** @description No billing portal is set up for this tenant. Code: `billing_not_configured`. */
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    exportAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["EmptyRequest"];
            };
        };
        responses: {
            /** @description The ZIP bundle. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Content-Disposition": components["headers"]["Content-Disposition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No valid credentials. Codes: `unauthenticated`, `invalid_token`, `token_expired`. */
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `api_key_not_allowed`. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "confirmation": "DELETE acme"
                 *     }
                 */
                "application/json": components["schemas"]["AccountDeleteRequest"];
            };
        };
        responses: {
            /** @description The account data is deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "customer_id": "acme",
                     *       "deleted": true,
                     *       "deleted_at": "2026-11-21T10:38:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["DeletedAccount"];
                };
            };
            /** @description The request is invalid. Codes: `invalid_request`, `malformed_json`, `confirmation_mismatch`, `malformed_request`. */
            400: components["responses"]["BadRequest"];
            /** @description No valid credentials. Codes: `unauthenticated`, `invalid_token`, `token_expired`. */
            401: components["responses"]["Unauthorized"];
            /** @description The caller may not do this. Codes: `insufficient_role`, `api_key_not_allowed`. */
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    onValidationFindings: {
        parameters: {
            query?: never;
            header: {
                /** @description `Bearer <WEBHOOK_TOKEN>` when the tenant configured a bearer token. */
                Authorization?: string;
                /** @description The payload's `event_id`. */
                "Groundcheck-Event-Id": components["schemas"]["WebhookEventId"];
                /** @description Standard Webhooks: the `event_id`, when the tenant has a signing secret. */
                "webhook-id"?: components["schemas"]["WebhookEventId"];
                /** @description Standard Webhooks: Unix seconds at sending, when the tenant has a signing secret. */
                "webhook-timestamp"?: string;
                /** @description Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256>` signatures, when the tenant has a signing secret. */
                "webhook-signature"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event_id": "evt_01JD3X8R2K4M6P8R0T2V4X6Z8B",
                 *       "event_type": "service.validation.findings",
                 *       "timestamp": 1795257067,
                 *       "customer_id": "acme",
                 *       "customer_name": "Acme Corporation",
                 *       "validation_id": "val_01JD3X8Q5Z7M2N4P6R8T0V2W4Y",
                 *       "mode": "validate",
                 *       "question": "How many days of paid leave do full-time employees get?",
                 *       "severity": "high",
                 *       "confidence_level": "low",
                 *       "issue_count": 1,
                 *       "issues": [
                 *         "Claim contradicted by the sources: \"Full-time employees get 30 days of paid leave per year.\""
                 *       ],
                 *       "findings": [
                 *         {
                 *           "category": "contradicted_claim",
                 *           "status": "failed",
                 *           "title": "Leave entitlement contradicts the sources",
                 *           "description": "The answer says 30 days; the inline source says 25 days per calendar year.",
                 *           "severity": "high"
                 *         }
                 *       ],
                 *       "user_corrections": [],
                 *       "source_conflict_count": 0,
                 *       "output_excerpt": "Full-time employees get 30 days of paid leave per year.",
                 *       "user": {
                 *         "user_id": "usr_01JD3XD5E6F7G8H9J0K1M2N3P4",
                 *         "name": "Uma User",
                 *         "role": "user"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ValidationFindingsEvent"];
            };
        };
        responses: {
            /** @description Any 2xx status acknowledges the delivery; the body is ignored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
