export interface paths {
    "/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every webhook delivery of the account (all timers, all endpoints), newest first
         * @description Each attempt carries its status, duration and the receiver's answer (the first 2 KB of the body and the headers). A page reads at most 1 000 deliveries: a filter that matches few may answer a short or empty page with a next_cursor to read on; next_cursor is null once nothing is left.
         */
        get: operations["listAccountDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send any delivery of the account (a timer's or a rundown's) once more, with the same id
         * @description As POST /timers/{id}/deliveries/{delivery_id}/redeliver, with the delivery named by its id alone.
         */
        post: operations["redeliverAccountDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public holidays of a region (or international days) with countdowns; no key needed */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's last 1 000 API requests, newest first
         * @description Requests made with any of the account's keys or a control token of its timers; never a body. Written shortly after each answer (within about a second). Look a failed request up by its X-Request-Id.
         */
        get: operations["listApiRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rundowns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your rundowns, newest first */
        get: operations["listRundowns"];
        put?: never;
        /** Create a rundown of timers (existing ones, or new countdowns and intervals) */
        post: operations["createRundown"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rundowns/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a rundown with its items' planned and expected starts (API key or its control token) */
        get: operations["getRundown"];
        put?: never;
        post?: never;
        /** Delete a rundown and the timers created with it (existing timers stay) */
        delete: operations["deleteRundown"];
        options?: never;
        head?: never;
        /** Change title, mode, webhook_url or the items (order, added, removed while not running) */
        patch: operations["updateRundown"];
        trace?: never;
    };
    "/rundowns/{id}/actions/{action}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The same actions without a body (?index=N for goto), and adjust (?seconds=N: the live item's time) */
        post: operations["runRundownAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rundowns/{id}/control_token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the rundown's control token (a lost or leaked control_url)
         * @description The old control_url stops working at once; the new one is in this response only.
         */
        post: operations["rotateRundownControlToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rundowns/{id}/item/message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the live item's own message (API key or the rundown's control token)
         * @description As PUT /timers/{id}/message on the live item's timer: it goes with that item (the next item does not show it) and wins over the rundown's message while set.
         */
        put: operations["setRundownItemMessage"];
        post?: never;
        /** Clear the live item's own message (API key or the rundown's control token) */
        delete: operations["clearRundownItemMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rundowns/{id}/message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Show a message on the stage across items, or black it out (API key or the rundown's control token)
         * @description The same body as a timer's message. It stays up as the show moves from item to item; while the live item has a message of its own, the stage shows the item's. It rides the stage's live stream, changes no state and sends no webhook.
         */
        put: operations["setRundownMessage"];
        post?: never;
        /** Hide the rundown's message and end its blackout (API key or the rundown's control token) */
        delete: operations["clearRundownMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rundowns/{id}/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** start, next, previous, goto (with index), stop or reset (API key or its control token) */
        patch: operations["changeRundownState"];
        trace?: never;
    };
    "/timers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your timers, newest first */
        get: operations["listTimers"];
        put?: never;
        /** Create a timer */
        post: operations["createTimer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a timer (API key or the timer's control token) */
        get: operations["getTimer"];
        put?: never;
        post?: never;
        /**
         * Delete a timer, its pending deliveries and its delivery log
         * @description The timer of a running rundown's live item cannot be deleted (409): the show would wait on a timer that no longer exists. Stop the rundown or move it on first. Other items of a rundown may be deleted; the show skips them. Deleting a rundown deletes the timers created with it, whatever their state.
         */
        delete: operations["deleteTimer"];
        options?: never;
        head?: never;
        /** Change title, theme, color, webhook_url, zones, or reschedule (duration, target_date) */
        patch: operations["updateTimer"];
        trace?: never;
    };
    "/timers/{id}/actions/{action}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start, pause, resume, reset, stop or adjust without a body (API key or the timer's control token)
         * @description The same answers and events as PATCH /timers/{id}/state, for tools that send a bare POST (Stream Deck, Companion's generic HTTP module, vMix scripts, curl). adjust takes ?seconds=N. There is no GET: link previewers and prefetchers send GETs.
         */
        post: operations["runTimerAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timers/{id}/control_token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the control token (a lost or leaked control_url)
         * @description The old control_url stops working at once; the new one is in this response only.
         */
        post: operations["rotateControlToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timers/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The webhook delivery log of a timer, newest first */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timers/{id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery once more, with the same id (any state)
         * @description One more attempt, at once, through the normal sender (the plan's limits, the destination rules), to the timer's current webhook_url (a delivery to an account endpoint: to the endpoint's current URL; 409 while it is disabled or once deleted). A succeeded or failed delivery gets exactly one attempt (redeliver again if it fails); a pending one waiting for a retry is attempted now and keeps its schedule. The id stays, so receivers that deduplicate on it see a repeat.
         */
        post: operations["redeliverDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timers/{id}/message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Show a message or black out the viewer (API key or the timer's control token)
         * @description Replaces the message. It rides the live stream to every open viewer; it changes no state and no deadline and sends no webhook. `{"blackout": true}` alone darkens the viewer.
         */
        put: operations["setTimerMessage"];
        post?: never;
        /** Hide the message and end a blackout (API key or the timer's control token) */
        delete: operations["clearTimerMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/timers/{id}/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Start, pause, resume, reset or stop (API key or the timer's control token) */
        patch: operations["changeTimerState"];
        trace?: never;
    };
    "/timers/{id}/webhook/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed webhook.test event (or an example of any event type) to the timer's webhook_url now and report the outcome
         * @description At most 10 a minute per account. A failed connection is reported as "could not connect", "TLS handshake failed" or "timed out"; an HTTP answer with its status.
         */
        post: operations["sendTestWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's webhook endpoints, oldest first */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Add a webhook endpoint (at most 10 per account) */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook_endpoints/{endpoint_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a webhook endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Delete a webhook endpoint (its pending retries are not sent; the timers' logs keep its deliveries) */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint's URL, description, events, or enable or disable it
         * @description Events emitted from then on follow the change; pending retries go to the new URL, and are not sent while the endpoint is disabled (they are logged as failed, and can be redelivered once it is enabled).
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/webhook_endpoints/{endpoint_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an example of any event type to the endpoint now, and report the outcome
         * @description A realistic payload of the event type asked for, signed like every delivery, marked as a test (data.test is true; timer_id is tmr_ExampleTimer0001, which no timer has; a rundown event names rdn_ExampleRundown01, which no rundown has). One attempt, never retried, sent also while the endpoint is disabled. Counts towards the account's 10 test sends a minute.
         */
        post: operations["sendEndpointExample"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "interval.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * interval.completed: An interval timer finished its last round
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_interval_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "interval.round_end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * interval.round_end: An interval timer finished a round
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_interval_round_end"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "rundown.advanced": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * rundown.advanced: another item is current: next, previous, goto, or a linked item's finish (stamped with its instant)
         * @description POSTed to the rundown's webhook_url and to each account webhook endpoint that asks for it (each delivery its own id), signed with the account's secret and retried like timer events (the items' own timer events go to their timers' webhook_url and endpoints as always).
         */
        post: operations["webhook_rundown_advanced"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "rundown.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * rundown.completed: the last item completed (or, in overtime, was stopped)
         * @description POSTed to the rundown's webhook_url and to each account webhook endpoint that asks for it (each delivery its own id), signed with the account's secret and retried like timer events (the items' own timer events go to their timers' webhook_url and endpoints as always).
         */
        post: operations["webhook_rundown_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "rundown.started": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * rundown.started: the show started (start from idle, stopped or completed)
         * @description POSTed to the rundown's webhook_url and to each account webhook endpoint that asks for it (each delivery its own id), signed with the account's secret and retried like timer events (the items' own timer events go to their timers' webhook_url and endpoints as always).
         */
        post: operations["webhook_rundown_started"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "timer.adjusted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * timer.adjusted: Time was added to or taken from a running or paused timer
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_timer_adjusted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "timer.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * timer.completed: A countdown reached zero or an event timer reached target_date
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_timer_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "timer.danger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * timer.danger: The running count crossed danger_at (once per crossing; an interval's every work phase)
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_timer_danger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "timer.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * timer.paused: The timer was paused
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_timer_paused"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "timer.reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * timer.reset: The timer returned to its initial duration
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_timer_reset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "timer.resumed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * timer.resumed: The timer resumed from paused
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_timer_resumed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "timer.started": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * timer.started: The timer started running
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_timer_started"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "timer.stopped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * timer.stopped: The timer was stopped
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_timer_stopped"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "timer.warning": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * timer.warning: The running count crossed warn_at (once per crossing; an interval's every work phase)
         * @description POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it (POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_timer_warning"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test: A test delivery sent on request (POST /timers/{id}/webhook/test)
         * @description POSTed to the timer's webhook_url when a test send is asked for (POST /timers/{id}/webhook/test): one attempt, never retried. Verify the signature before trusting the body; see the webhooks guide.
         */
        post: operations["webhook_webhook_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        AccountDeliveryList: {
            deliveries: components["schemas"]["Delivery"][];
            next_cursor: string | null;
        };
        /** @description An action to apply */
        ActionChange: {
            /**
             * @description What to do
             * @enum {string}
             */
            action: "start" | "pause" | "resume" | "reset" | "stop";
        };
        /** @description Adds or takes away time from a running or paused countdown, or from an interval's current phase (the planned duration stays; added_seconds shows the net change, reset forgets it). Taking away more than is left ends it now (completed, or overtime). 409 on events and on idle, completed or stopped timers */
        AdjustChange: {
            /** @enum {string} */
            action: "adjust";
            /**
             * @description Seconds to add (negative: to take away); not 0
             * @example 60
             */
            seconds: number;
        };
        ApiRequest: {
            /**
             * Format: date-time
             * @description When the request arrived
             */
            at: string;
            duration_ms: number;
            /** @description The API key's prefix; null for a control token */
            key_prefix: string | null;
            method: string;
            /** @description Path and query; query values other than filters and paging read `redacted` */
            path: string;
            /** @description The X-Request-Id it was answered with */
            request_id: string;
            status: number;
        };
        ApiRequestList: {
            next_cursor: string | null;
            requests: components["schemas"]["ApiRequest"][];
        };
        /** @description A countdown of `duration` seconds */
        CountdownCreate: {
            /**
             * @description Six hex digits without the leading #; answered in upper case
             * @example 6C63FF
             */
            color?: string;
            /** @description Seconds before the end where the danger zone begins (timer.danger is sent as it is crossed); below warn_at when both are set */
            danger_at?: number;
            /**
             * @description Seconds
             * @example 300
             */
            duration: number;
            /** @description Count on past zero (zone overtime, overtime_seconds) after sending timer.completed with data.overtime true; stops itself after 24 h. Default false */
            overtime?: boolean;
            /**
             * @description A cue the viewer and widget play at warning, at danger and at zero (synthesised; browsers may ask for a tap first). Default none (the widget's completion alarm only); the widget's sound= overrides it
             * @enum {string}
             */
            sound?: "none" | "beep" | "chime";
            /**
             * @description Page theme; default dark (as the widget's, so a timer and a widget of parameters look alike)
             * @enum {string}
             */
            theme?: "light" | "dark" | "auto";
            /**
             * @description null: no title
             * @example Launch
             */
            title?: string | null;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "countdown";
            /** @description Seconds before the end where the warning zone begins (timer.warning is sent as it is crossed); below a countdown's duration (an interval's work: every work phase). With danger_at, above it */
            warn_at?: number;
            /**
             * Format: uri
             * @description Absolute https URL notified of the timer's events (plain http only where the operator allows it; private and loopback addresses are refused unless the operator allows them; ports 80, 443 and 1024–65535 only, less the ports browsers refuse). Stored and answered normalised: scheme and host in lower case, an international host in punycode, and characters RFC 3986 does not allow (non-ASCII, [ ] ^ | { } and the like, a % that starts no escape) percent-encoded
             * @example https://example.com/hooks/timer
             */
            webhook_url?: string;
        };
        CreateRundown: {
            /** @description 1 to 100 items, in order */
            items: components["schemas"]["RundownItemInput"][];
            /**
             * @description manual: the operator moves on (next); linked: when an item completes (an item in overtime: when it is stopped) the next starts in the same commit, at the same instant. Default manual
             * @enum {string}
             */
            mode?: "manual" | "linked";
            /**
             * @description At most 100 characters (Unicode code points): text without control characters or bidirectional overrides
             * @example Launch
             */
            title?: string | null;
            /**
             * Format: uri
             * @description Receives rundown.started, rundown.advanced and rundown.completed, signed like timer events
             */
            webhook_url?: string;
        };
        /** @description One shape per type; fields of another type are refused */
        CreateTimer: components["schemas"]["CountdownCreate"] | components["schemas"]["EventCreate"] | components["schemas"]["IntervalCreate"];
        CreateWebhookEndpoint: {
            /**
             * @description A note for people, e.g. what the receiver is; no control characters
             * @example Slack relay
             */
            description?: string;
            /** @description Default true */
            enabled?: boolean;
            /**
             * @description Default "all"
             * @example [
             *       "timer.completed"
             *     ]
             */
            events?: "all" | ("timer.started" | "timer.paused" | "timer.resumed" | "timer.stopped" | "timer.reset" | "timer.completed" | "interval.round_end" | "interval.completed" | "timer.warning" | "timer.danger" | "timer.adjusted" | "rundown.started" | "rundown.advanced" | "rundown.completed")[];
            /**
             * Format: uri
             * @description Absolute https URL that receives the events, under the same rules as a timer's webhook_url (plain http and private addresses only where the operator allows them; ports 80, 443 and 1024–65535). Stored and answered normalised
             * @example https://example.com/hooks/timers
             */
            url: string;
        };
        Deleted: {
            /** @enum {boolean} */
            deleted: true;
            timer_id: string;
        };
        Delivery: {
            attempts: components["schemas"]["DeliveryAttempt"][];
            /** Format: date-time */
            created_at: string;
            /** @description The account webhook endpoint it was sent to (GET /webhook_endpoints); null: the timer's webhook_url */
            endpoint_id: string | null;
            /**
             * @description The event type (as payload.event)
             * @enum {string}
             */
            event: "timer.started" | "timer.paused" | "timer.resumed" | "timer.stopped" | "timer.reset" | "timer.completed" | "interval.round_end" | "interval.completed" | "timer.warning" | "timer.danger" | "timer.adjusted" | "webhook.test" | "rundown.started" | "rundown.advanced" | "rundown.completed";
            /** @description The event id, stable across retries and redelivery */
            id: string;
            /** Format: date-time */
            next_attempt_at: string | null;
            payload: components["schemas"]["WebhookPayload"];
            /** @enum {string} */
            state: "pending" | "succeeded" | "failed";
            /** Format: uri */
            url: string;
        };
        DeliveryAttempt: {
            /** Format: date-time */
            at: string;
            duration_ms: number;
            /** @description Why the attempt failed; null when it succeeded */
            error: string | null;
            n: number;
            /** @description What the receiver answered; absent when no answer came (or for an older attempt of a delivery whose answers were large: at least the newest ones are kept) */
            response?: {
                /** @description The first 2 KB of the receiver's answer, as UTF-8 text (the receiver's data: render it escaped) */
                body: string;
                /** @description The answer's headers (lower-case names; at most 1 KB in all, each value at most 256 characters; cookie and authentication headers read [not kept]) */
                headers: {
                    [key: string]: string;
                };
                /** @description Some headers did not fit and were left out */
                headers_truncated?: boolean;
                /** @description The body was longer than what is kept */
                truncated: boolean;
            };
            /** @description HTTP status, or null when no answer came */
            status: number | null;
        };
        DeliveryList: {
            deliveries: components["schemas"]["Delivery"][];
            next_cursor: string | null;
        };
        EndpointExample: {
            /** @description Whether the endpoint answered 2xx in time */
            delivered: boolean;
            duration_ms: number;
            /** @description Why it failed; null when delivered */
            error: string | null;
            payload: components["schemas"]["WebhookPayload"];
            /** @description HTTP status, or null when no answer came */
            status: number | null;
        };
        EndpointExampleRequest: {
            /**
             * @description The event type to send an example of (a rundown event's names rdn_ExampleRundown01)
             * @enum {string}
             */
            event: "timer.started" | "timer.paused" | "timer.resumed" | "timer.stopped" | "timer.reset" | "timer.completed" | "interval.round_end" | "interval.completed" | "timer.warning" | "timer.danger" | "timer.adjusted" | "webhook.test" | "rundown.started" | "rundown.advanced" | "rundown.completed";
        };
        /**
         * @description Every error has this shape
         * @example {
         *       "error": {
         *         "code": 422,
         *         "message": "duration must be an integer from 1 to 31536000 (seconds), got 0",
         *         "field": "duration"
         *       }
         *     }
         */
        ErrorResponse: {
            error: {
                /** @description The HTTP status */
                code: number;
                /** @description The offending field or parameter, when there is one */
                field?: string;
                /** @description What is wrong and how to fix it */
                message: string;
            };
        };
        /** @description Counts to a fixed instant; completes at target_date */
        EventCreate: {
            /**
             * @description Six hex digits without the leading #; answered in upper case
             * @example 6C63FF
             */
            color?: string;
            /** @description Seconds before the end where the danger zone begins (timer.danger is sent as it is crossed); below warn_at when both are set */
            danger_at?: number;
            /** @description Count on past zero (zone overtime, overtime_seconds) after sending timer.completed with data.overtime true; stops itself after 24 h. Default false */
            overtime?: boolean;
            /**
             * @description A cue the viewer and widget play at warning, at danger and at zero (synthesised; browsers may ask for a tap first). Default none (the widget's completion alarm only); the widget's sound= overrides it
             * @enum {string}
             */
            sound?: "none" | "beep" | "chime";
            /**
             * Format: date-time
             * @description ISO 8601 date-time with Z or an offset (a real calendar date), in the future, at most 10 years ahead
             * @example 2027-01-01T00:00:00Z
             */
            target_date: string;
            /**
             * @description Page theme; default dark (as the widget's, so a timer and a widget of parameters look alike)
             * @enum {string}
             */
            theme?: "light" | "dark" | "auto";
            /**
             * @description null: no title
             * @example Launch
             */
            title?: string | null;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "event";
            /** @description Seconds before the end where the warning zone begins (timer.warning is sent as it is crossed); below a countdown's duration (an interval's work: every work phase). With danger_at, above it */
            warn_at?: number;
            /**
             * Format: uri
             * @description Absolute https URL notified of the timer's events (plain http only where the operator allows it; private and loopback addresses are refused unless the operator allows them; ports 80, 443 and 1024–65535 only, less the ports browsers refuse). Stored and answered normalised: scheme and host in lower case, an international host in punycode, and characters RFC 3986 does not allow (non-ASCII, [ ] ^ | { } and the like, a % that starts no escape) percent-encoded
             * @example https://example.com/hooks/timer
             */
            webhook_url?: string;
        };
        EventList: {
            events: components["schemas"]["PublicEvent"][];
            region: string;
            timezone: string;
        };
        /** @description An interval timer finished its last round */
        IntervalCompletedEvent: {
            data: {
                actual_duration: number;
                /** Format: date-time */
                completed_at: string;
                duration: number;
                rounds: number;
                /** Format: date-time */
                started_at: string;
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "interval.completed";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        /** @description Rounds of work then rest */
        IntervalCreate: {
            /**
             * @description Six hex digits without the leading #; answered in upper case
             * @example 6C63FF
             */
            color?: string;
            /** @description Seconds before the end where the danger zone begins (timer.danger is sent as it is crossed); below warn_at when both are set */
            danger_at?: number;
            /**
             * @description Rest phase, seconds
             * @example 10
             */
            rest: number;
            /**
             * @description Number of rounds; omit for unlimited
             * @example 8
             */
            rounds?: number;
            /**
             * @description A cue the viewer and widget play at warning, at danger and at zero (synthesised; browsers may ask for a tap first). Default none (the widget's completion alarm only); the widget's sound= overrides it
             * @enum {string}
             */
            sound?: "none" | "beep" | "chime";
            /**
             * @description Page theme; default dark (as the widget's, so a timer and a widget of parameters look alike)
             * @enum {string}
             */
            theme?: "light" | "dark" | "auto";
            /**
             * @description null: no title
             * @example Launch
             */
            title?: string | null;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "interval";
            /** @description Seconds before the end where the warning zone begins (timer.warning is sent as it is crossed); below a countdown's duration (an interval's work: every work phase). With danger_at, above it */
            warn_at?: number;
            /**
             * Format: uri
             * @description Absolute https URL notified of the timer's events (plain http only where the operator allows it; private and loopback addresses are refused unless the operator allows them; ports 80, 443 and 1024–65535 only, less the ports browsers refuse). Stored and answered normalised: scheme and host in lower case, an international host in punycode, and characters RFC 3986 does not allow (non-ASCII, [ ] ^ | { } and the like, a % that starts no escape) percent-encoded
             * @example https://example.com/hooks/timer
             */
            webhook_url?: string;
            /**
             * @description Work phase, seconds
             * @example 20
             */
            work: number;
        };
        /** @description An interval timer finished a round */
        IntervalRoundEndEvent: {
            data: {
                /** @description Present on the first round end sent after a downtime that owed more than 10: only the 10 most recent round ends are sent, and this many earlier ones were skipped without an event */
                missed_rounds?: number;
                rest: number;
                /** @description The round that just ended (1-based) */
                round: number;
                /** @description null for unlimited rounds */
                rounds: number | null;
                work: number;
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "interval.round_end";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        /** @description What the viewer shows beside the timer (PUT /timers/{id}/message), or null */
        Message: {
            blackout: boolean;
            /** @enum {string} */
            color: "white" | "green" | "yellow" | "red";
            flash: number;
            /** Format: date-time */
            set_at: string;
            text: string;
        } | null;
        /** @description What the speaker's screen shows beside the timer */
        MessageChange: {
            /** @description Turn the viewer black (the timer keeps counting underneath). Default false */
            blackout?: boolean;
            /**
             * @description Default white
             * @enum {string}
             */
            color?: "white" | "green" | "yellow" | "red";
            /** @description How many times the message flashes as it appears (at most 3 a second; a steady inverted style where the viewer asks for reduced motion). Default 0 */
            flash?: number;
            /**
             * @description At most 200 characters; required unless blackout is true
             * @example Wrap up, please
             */
            text?: string;
        };
        PublicEvent: {
            /** Format: date */
            date: string;
            /** @description CN, TW: every date of the holiday's break */
            days_off?: string[];
            name: string;
            /** @description A weekday given off in place of a weekend holiday */
            observed?: boolean;
            passed: boolean;
            /** @description Days off computed from the law; the official calendar is not published yet */
            provisional?: boolean;
            remaining: {
                days: number;
                hours: number;
                minutes: number;
                seconds: number;
                total_seconds: number;
            };
            slug: string;
            /**
             * @description curated: the six regions and the international days, checked by hand against official calendars; date-holidays: every other country, as the date-holidays library has it
             * @enum {string}
             */
            source: "curated" | "date-holidays";
            /** @description CN: weekend days made working days */
            workdays?: string[];
        };
        Rundown: {
            /** Format: uri */
            agenda_url: string;
            /** Format: date-time */
            completed_at: string | null;
            /**
             * Format: uri
             * @description Shown only when created and by POST /rundowns/{id}/control_token: /r/<id>/control#<control token>; the token (as Bearer) may read this rundown and run its actions
             */
            control_url?: string;
            /** Format: date-time */
            created_at: string;
            /** @description The index of the live (or cued) item */
            current: number;
            items: {
                created_with_rundown: boolean;
                duration: number | null;
                /**
                 * Format: date-time
                 * @description Started items: when they started; later ones: the current item's expected end plus the items between
                 */
                expected_start: string | null;
                message: components["schemas"]["Message"] & unknown;
                /**
                 * Format: date-time
                 * @description The show's start (or now, before it) plus the items before
                 */
                planned_start: string | null;
                remaining_seconds: number | null;
                /**
                 * @description missing: the timer was deleted
                 * @enum {string}
                 */
                state: "idle" | "running" | "paused" | "completed" | "stopped" | "missing";
                timer_id: string;
                title: string | null;
                /** @enum {string|null} */
                type: "countdown" | "interval" | "event" | null;
            }[];
            message: components["schemas"]["Message"] & unknown;
            /** @enum {string} */
            mode: "manual" | "linked";
            /** @description How far the show runs behind its plan (negative: ahead), from the current item's expected end */
            offset_seconds: number;
            rundown_id: string;
            /**
             * Format: uri
             * @description Always shows the current item
             */
            stage_url: string;
            /** Format: date-time */
            started_at: string | null;
            /** @enum {string} */
            state: "idle" | "running" | "stopped" | "completed";
            title: string | null;
            /** Format: uri */
            webhook_url?: string | null;
        };
        /** @description another item is current: next, previous, goto, or a linked item's finish (stamped with its instant) */
        RundownAdvancedEvent: {
            data: {
                /**
                 * @description The action, or finish: the live item completed (linked mode)
                 * @enum {string}
                 */
                cause: "next" | "previous" | "goto" | "finish";
                from: number;
                item: {
                    index: number;
                    timer_id: string | null;
                    title: string | null;
                };
                to: number;
            };
            /** @enum {string} */
            event: "rundown.advanced";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            rundown_id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
        };
        /** @description the last item completed (or, in overtime, was stopped) */
        RundownCompletedEvent: {
            data: {
                /** @enum {string} */
                cause: "finish";
                item: {
                    index: number;
                    timer_id: string | null;
                    title: string | null;
                };
            };
            /** @enum {string} */
            event: "rundown.completed";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            rundown_id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
        };
        RundownDeleted: {
            /** @enum {boolean} */
            deleted: true;
            rundown_id: string;
        };
        /** @description An existing timer, or a countdown or interval created with the rundown (POST /timers' body); timers created with the rundown are deleted with it */
        RundownItemInput: components["schemas"]["RundownItemRef"] | components["schemas"]["CountdownCreate"] | components["schemas"]["IntervalCreate"];
        /** @description An existing timer; it stays when the rundown is deleted */
        RundownItemRef: {
            /** @description An existing countdown or interval timer of yours */
            timer_id: string;
        };
        RundownList: {
            next_cursor: string | null;
            rundowns: components["schemas"]["Rundown"][];
        };
        /** @description the show started (start from idle, stopped or completed) */
        RundownStartedEvent: {
            data: {
                item: {
                    index: number;
                    timer_id: string | null;
                    title: string | null;
                };
            };
            /** @enum {string} */
            event: "rundown.started";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            rundown_id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
        };
        RundownStateChange: {
            /**
             * @description start: the current item (resumed if paused); next/previous: stop the current item, start the neighbour; goto: stop the current item and cue `index` without starting it; stop; reset: every item idle, back to item 0
             * @enum {string}
             */
            action: "start" | "next" | "previous" | "goto" | "stop" | "reset";
            /** @description goto only: the item */
            index?: number;
        };
        /** @description A rundown event's payload (see the webhooks rundown.*) */
        RundownWebhookPayload: {
            data: {
                [key: string]: unknown;
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "rundown.started" | "rundown.advanced" | "rundown.completed";
            id: string;
            rundown_id: string;
            /** Format: date-time */
            timestamp: string;
            title: string | null;
        };
        /** @description Exactly one of action (with seconds for adjust) or state */
        StateChange: components["schemas"]["ActionChange"] | components["schemas"]["AdjustChange"] | components["schemas"]["StateTargetChange"];
        /** @description The state to reach; the action that reaches it from the current state is applied */
        StateTargetChange: {
            /**
             * @description The state to reach (running: start or resume)
             * @enum {string}
             */
            state: "running" | "paused" | "idle" | "stopped";
        };
        TestDelivery: {
            delivered: boolean;
            delivery: components["schemas"]["Delivery"];
        };
        Timer: {
            /** @description Net seconds added by adjust since the last start or reset */
            added_seconds: number;
            color: string;
            /** Format: date-time */
            completed_at: string | null;
            /**
             * Format: uri
             * @description Only in the responses of creation and of POST /timers/{id}/control_token: the capability to read and control this timer (keep it secret)
             */
            control_url?: string;
            /** @description Whether the clock moves toward a deadline now: running, or an event timer nobody started (an event counts to target_date whether or not it was started) */
            counting: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Seconds before the end where the danger zone begins */
            danger_at: number | null;
            /** @description Seconds: countdown as given; event from creation to target_date; interval rounds × (work + rest), null when rounds are unlimited */
            duration: number | null;
            /** Format: uri */
            embed_url: string;
            /**
             * Format: date-time
             * @description When the timer and its data are purged: at least 7 days after a running timer's next deadline, or after the end a paused one would have if resumed at its last change (adjusts included)
             */
            expires_at: string;
            /** @description Interval timers: where the timer is now */
            interval?: {
                /** @enum {string} */
                phase: "work" | "rest";
                phase_remaining_seconds: number;
                round: number;
            };
            message: components["schemas"]["Message"];
            /** @description Whether it counts on past zero */
            overtime: boolean;
            /** @description Whole seconds past zero while in overtime; 0 otherwise */
            overtime_seconds: number;
            /** @description Whole seconds left (rounded up) at the time of the response; null for unlimited intervals */
            remaining_seconds: number | null;
            /** @description Interval timers */
            rest?: number;
            /** @description Interval timers; null for unlimited */
            rounds?: number | null;
            /**
             * @description The cue the pages play at warning, danger and zero
             * @enum {string}
             */
            sound: "none" | "beep" | "chime";
            /** Format: date-time */
            started_at: string | null;
            /** @enum {string} */
            state: "idle" | "running" | "paused" | "completed" | "stopped";
            /**
             * Format: date-time
             * @description Event timers
             */
            target_date?: string;
            /** @enum {string} */
            theme: "light" | "dark" | "auto";
            timer_id: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
            /** Format: uri */
            viewer_url: string;
            /** @description Seconds before the end where the warning zone begins */
            warn_at: number | null;
            /**
             * Format: uri
             * @description Only to the owner (API key), not to a control token; normalised (see the request's webhook_url)
             */
            webhook_url?: string | null;
            /** @description Interval timers */
            work?: number;
            /**
             * @description Computed at the time of the response: normal, warning or danger (from the time left; an interval's from its work phase), or overtime (past zero, counting on)
             * @enum {string}
             */
            zone: "normal" | "warning" | "danger" | "overtime";
        };
        /** @description Time was added to or taken from a running or paused timer */
        TimerAdjustedEvent: {
            data: {
                /** @description Net seconds added since the last start or reset */
                added_seconds: number;
                /** @description After the adjust; null for unlimited intervals */
                remaining_seconds: number | null;
                /** @description Seconds added (negative: taken away) by this adjust */
                seconds: number;
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "timer.adjusted";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        /** @description A countdown reached zero or an event timer reached target_date */
        TimerCompletedEvent: {
            data: {
                /** @description Seconds from start to completion */
                actual_duration: number | null;
                /** Format: date-time */
                completed_at: string;
                duration: number | null;
                /**
                 * @description Only for timers with overtime: it reached zero and counts on (state stays running)
                 * @enum {boolean}
                 */
                overtime?: true;
                /**
                 * Format: date-time
                 * @description null for an event timer that was never started
                 */
                started_at: string | null;
                /** @enum {string} */
                state: "completed";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "timer.completed";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        /** @description The running count crossed danger_at (once per crossing; an interval's every work phase) */
        TimerDangerEvent: {
            data: {
                /** @description The timer's danger threshold (danger_at) */
                remaining_seconds: number;
                /** @description Interval timers: the round whose work phase crossed it */
                round?: number;
                /** @enum {string} */
                zone: "danger";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "timer.danger";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        TimerList: {
            /** @description Pass as cursor for the next page; null on the last */
            next_cursor: string | null;
            timers: components["schemas"]["Timer"][];
        };
        /** @description The timer was paused */
        TimerPausedEvent: {
            data: {
                remaining_seconds: number | null;
                /** @enum {string} */
                state: "paused";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "timer.paused";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        /** @description The timer returned to its initial duration */
        TimerResetEvent: {
            data: {
                remaining_seconds: number | null;
                /** @enum {string} */
                state: "idle";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "timer.reset";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        /** @description The timer resumed from paused */
        TimerResumedEvent: {
            data: {
                remaining_seconds: number | null;
                /** @enum {string} */
                state: "running";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "timer.resumed";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        /** @description The timer started running */
        TimerStartedEvent: {
            data: {
                /** @description null for an interval with unlimited rounds */
                duration: number | null;
                remaining_seconds: number | null;
                /** Format: date-time */
                started_at: string;
                /** @enum {string} */
                state: "running";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "timer.started";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        /** @description The timer was stopped */
        TimerStoppedEvent: {
            data: {
                /** @description Timers with overtime: seconds past zero */
                overtime_seconds?: number;
                /**
                 * @description Only when overtime stopped itself after 24 h
                 * @enum {string}
                 */
                reason?: "overtime_limit";
                remaining_seconds: number | null;
                /** @enum {string} */
                state: "stopped";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "timer.stopped";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        /** @description The running count crossed warn_at (once per crossing; an interval's every work phase) */
        TimerWarningEvent: {
            data: {
                /** @description The timer's warning threshold (warn_at) */
                remaining_seconds: number;
                /** @description Interval timers: the round whose work phase crossed it */
                round?: number;
                /** @enum {string} */
                zone: "warning";
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "timer.warning";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        UpdateRundown: {
            /** @description The whole new list: items kept by their timer_id (in the new order), new ones added; an item left out is removed (409 if it is running; one created with the rundown is deleted) */
            items?: components["schemas"]["RundownItemInput"][];
            /**
             * @description manual: the operator moves on (next); linked: when an item completes (an item in overtime: when it is stopped) the next starts in the same commit, at the same instant. Default manual
             * @enum {string}
             */
            mode?: "manual" | "linked";
            /**
             * @description null clears it
             * @example Launch
             */
            title?: string | null;
            /**
             * Format: uri
             * @description null removes it
             */
            webhook_url?: string | null;
        };
        /** @description The fields to change; the id, viewer, embed and control URLs stay. type, work, rest and rounds cannot change (create a new timer) */
        UpdateTimer: {
            /**
             * @description Six hex digits without the leading #; answered in upper case
             * @example 6C63FF
             */
            color?: string;
            /** @description null clears it; thresholds count from now */
            danger_at?: number | null;
            /**
             * @description Countdown timers only: the new duration in seconds, while the timer is idle or stopped (409 otherwise, error.field duration). warn_at and danger_at must stay below it (422)
             * @example 600
             */
            duration?: number;
            /** @description Countdown and event timers (409 turning it off in overtime) */
            overtime?: boolean;
            /**
             * @description A cue the viewer and widget play at warning, at danger and at zero (synthesised; browsers may ask for a tap first). Default none (the widget's completion alarm only); the widget's sound= overrides it
             * @enum {string}
             */
            sound?: "none" | "beep" | "chime";
            /**
             * Format: date-time
             * @description Event timers only: the new instant to count to (in the future, at most 10 years ahead), in any state but completed and stopped (409 then, error.field target_date). The event then completes at the new instant, once; duration is recounted from created_at and expires_at follows
             * @example 2027-01-01T00:00:00Z
             */
            target_date?: string;
            /**
             * @description Page theme; default dark (as the widget's, so a timer and a widget of parameters look alike)
             * @enum {string}
             */
            theme?: "light" | "dark" | "auto";
            /**
             * @description null clears it
             * @example Launch
             */
            title?: string | null;
            /** @description null clears it; thresholds count from now */
            warn_at?: number | null;
            /**
             * Format: uri
             * @description null removes the webhook
             * @example https://example.com/hooks/timer
             */
            webhook_url?: string | null;
        };
        UpdateWebhookEndpoint: {
            /**
             * @description A note for people, e.g. what the receiver is; no control characters
             * @example Slack relay
             */
            description?: string;
            /** @description A disabled endpoint receives nothing (pending retries included) */
            enabled?: boolean;
            /**
             * @description "all" (every event type, including types added later) or the event types this endpoint receives
             * @example [
             *       "timer.completed"
             *     ]
             */
            events?: "all" | ("timer.started" | "timer.paused" | "timer.resumed" | "timer.stopped" | "timer.reset" | "timer.completed" | "interval.round_end" | "interval.completed" | "timer.warning" | "timer.danger" | "timer.adjusted" | "rundown.started" | "rundown.advanced" | "rundown.completed")[];
            /**
             * Format: uri
             * @description Absolute https URL that receives the events, under the same rules as a timer's webhook_url (plain http and private addresses only where the operator allows them; ports 80, 443 and 1024–65535). Stored and answered normalised
             * @example https://example.com/hooks/timers
             */
            url?: string;
        };
        /** @description Receives every event of every timer and rundown of the account that it asks for, beside the timer's or rundown's own webhook_url: each delivery with its own id, signed with the account's secret, retried and logged in the timer's (or rundown's) delivery log (endpoint_id names the endpoint) */
        WebhookEndpoint: {
            /** Format: date-time */
            created_at: string;
            description: string;
            enabled: boolean;
            events: "all" | ("timer.started" | "timer.paused" | "timer.resumed" | "timer.stopped" | "timer.reset" | "timer.completed" | "interval.round_end" | "interval.completed" | "timer.warning" | "timer.danger" | "timer.adjusted" | "rundown.started" | "rundown.advanced" | "rundown.completed")[];
            id: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: uri */
            url: string;
        };
        WebhookEndpointDeleted: {
            /** @enum {boolean} */
            deleted: true;
            id: string;
        };
        WebhookEndpointList: {
            endpoints: components["schemas"]["WebhookEndpoint"][];
        };
        /** @description Any webhook payload, by its event (a timer's or a rundown's) */
        WebhookPayload: components["schemas"]["TimerStartedEvent"] | components["schemas"]["TimerPausedEvent"] | components["schemas"]["TimerResumedEvent"] | components["schemas"]["TimerStoppedEvent"] | components["schemas"]["TimerResetEvent"] | components["schemas"]["TimerCompletedEvent"] | components["schemas"]["IntervalRoundEndEvent"] | components["schemas"]["IntervalCompletedEvent"] | components["schemas"]["TimerWarningEvent"] | components["schemas"]["TimerDangerEvent"] | components["schemas"]["TimerAdjustedEvent"] | components["schemas"]["WebhookTestEvent"] | components["schemas"]["RundownWebhookPayload"];
        /** @description A test delivery sent on request (POST /timers/{id}/webhook/test) */
        WebhookTestEvent: {
            data: {
                message: string;
            };
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "webhook.test";
            /** @description The event id: stable across retries, deduplicate on it */
            id: string;
            /** @description In the delivered body only (its last member): the same value as X-Service-Signature */
            signature?: string;
            timer_id: string;
            /**
             * Format: date-time
             * @description When the event happened
             */
            timestamp: string;
            title: string | null;
            /** @enum {string} */
            type: "countdown" | "event" | "interval";
        };
        WebhookTestRequest: {
            /**
             * @description Send an example of this event type instead (a realistic payload of the timer, marked as a test: data.test is true). Default webhook.test
             * @enum {string}
             */
            event?: "timer.started" | "timer.paused" | "timer.resumed" | "timer.stopped" | "timer.reset" | "timer.completed" | "interval.round_end" | "interval.completed" | "timer.warning" | "timer.danger" | "timer.adjusted" | "webhook.test";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The methods this path answers */
        Allow: string;
        /** @description The created timer's URL */
        Location: string;
        /** @description Seconds to wait before retrying */
        "Retry-After": number;
        /** @description The Bearer challenge */
        "WWW-Authenticate": string;
        /** @description Requests allowed in the current minute window (a plan without a per-minute limit, or a 429 for a spent day: the day's; absent when unlimited) */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the current minute window (a plan without a per-minute limit: the day's; absent when unlimited) */
        "X-RateLimit-Remaining": number;
        /** @description Unix epoch seconds at which the window of X-RateLimit-Limit and -Remaining resets: the current minute's, or the UTC day's (a plan without a per-minute limit, or a 429 for a spent day) */
        "X-RateLimit-Reset": number;
        /** @description The request's id (yours if you sent a valid X-Request-Id); quote it when reporting a problem */
        "X-Request-Id": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAccountDeliveries: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description Only deliveries of this event type */
                event?: "timer.started" | "timer.paused" | "timer.resumed" | "timer.stopped" | "timer.reset" | "timer.completed" | "interval.round_end" | "interval.completed" | "timer.warning" | "timer.danger" | "timer.adjusted" | "webhook.test" | "rundown.started" | "rundown.advanced" | "rundown.completed";
                /** @description Page size, 1–100 (default 20) */
                limit?: number;
                /** @description Only deliveries in this state */
                status?: "pending" | "succeeded" | "failed";
                /** @description Only deliveries of this timer (or rundown) */
                timer_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountDeliveryList"];
                };
            };
            /** @description An invalid query parameter, or a cursor this API did not return */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    redeliverAccountDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The delivery's (event's) id */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending again; attempted at once */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No delivery of the account with this id */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An attempt of it is under way, its endpoint is disabled or deleted, or it changed meanwhile */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Its timer (or rundown) has no webhook_url (error.field is webhook_url) */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Names in this language (ISO 639-1, e.g. de, ja) where the region's calendar has them (JP, CN, TW and most date-holidays countries have their own language); otherwise English. Slugs never change */
                lang?: string;
                /** @description Curated against official calendars: US, CN, TW, UK, JP, AU (UK is England & Wales, GB the same list; AU national holidays). Any other ISO 3166-1 alpha-2 code date-holidays knows: public holidays only, as the library has them (events say source "date-holidays"). Any case; none: widely observed international days */
                region?: "US" | "us" | "CN" | "cn" | "TW" | "tw" | "UK" | "uk" | "JP" | "jp" | "AU" | "au" | "GB" | "gb" | "AD" | "ad" | "AE" | "ae" | "AG" | "ag" | "AI" | "ai" | "AL" | "al" | "AM" | "am" | "AO" | "ao" | "AR" | "ar" | "AS" | "as" | "AT" | "at" | "AW" | "aw" | "AX" | "ax" | "AZ" | "az" | "BA" | "ba" | "BB" | "bb" | "BD" | "bd" | "BE" | "be" | "BF" | "bf" | "BG" | "bg" | "BH" | "bh" | "BI" | "bi" | "BJ" | "bj" | "BL" | "bl" | "BM" | "bm" | "BN" | "bn" | "BO" | "bo" | "BQ" | "bq" | "BR" | "br" | "BS" | "bs" | "BW" | "bw" | "BY" | "by" | "BZ" | "bz" | "CA" | "ca" | "CC" | "cc" | "CD" | "cd" | "CF" | "cf" | "CG" | "cg" | "CH" | "ch" | "CI" | "ci" | "CK" | "ck" | "CL" | "cl" | "CM" | "cm" | "CO" | "co" | "CR" | "cr" | "CU" | "cu" | "CV" | "cv" | "CW" | "cw" | "CX" | "cx" | "CY" | "cy" | "CZ" | "cz" | "DE" | "de" | "DJ" | "dj" | "DK" | "dk" | "DM" | "dm" | "DO" | "do" | "DZ" | "dz" | "EC" | "ec" | "EE" | "ee" | "EG" | "eg" | "EH" | "eh" | "ER" | "er" | "ES" | "es" | "ET" | "et" | "FI" | "fi" | "FJ" | "fj" | "FO" | "fo" | "FR" | "fr" | "GA" | "ga" | "GD" | "gd" | "GE" | "ge" | "GF" | "gf" | "GG" | "gg" | "GH" | "gh" | "GI" | "gi" | "GL" | "gl" | "GM" | "gm" | "GN" | "gn" | "GP" | "gp" | "GQ" | "gq" | "GR" | "gr" | "GT" | "gt" | "GU" | "gu" | "GW" | "gw" | "GY" | "gy" | "HK" | "hk" | "HN" | "hn" | "HR" | "hr" | "HT" | "ht" | "HU" | "hu" | "IC" | "ic" | "ID" | "id" | "IE" | "ie" | "IL" | "il" | "IM" | "im" | "IN" | "in" | "IR" | "ir" | "IS" | "is" | "IT" | "it" | "JE" | "je" | "JM" | "jm" | "KE" | "ke" | "KM" | "km" | "KN" | "kn" | "KR" | "kr" | "KY" | "ky" | "KZ" | "kz" | "LC" | "lc" | "LI" | "li" | "LK" | "lk" | "LR" | "lr" | "LS" | "ls" | "LT" | "lt" | "LU" | "lu" | "LV" | "lv" | "LY" | "ly" | "MA" | "ma" | "MC" | "mc" | "MD" | "md" | "ME" | "me" | "MF" | "mf" | "MG" | "mg" | "MK" | "mk" | "ML" | "ml" | "MQ" | "mq" | "MR" | "mr" | "MS" | "ms" | "MT" | "mt" | "MU" | "mu" | "MW" | "mw" | "MX" | "mx" | "MY" | "my" | "MZ" | "mz" | "NA" | "na" | "NC" | "nc" | "NE" | "ne" | "NF" | "nf" | "NG" | "ng" | "NI" | "ni" | "NL" | "nl" | "NO" | "no" | "NZ" | "nz" | "PA" | "pa" | "PE" | "pe" | "PF" | "pf" | "PH" | "ph" | "PK" | "pk" | "PL" | "pl" | "PM" | "pm" | "PR" | "pr" | "PT" | "pt" | "PY" | "py" | "RE" | "re" | "RO" | "ro" | "RS" | "rs" | "RU" | "ru" | "RW" | "rw" | "SA" | "sa" | "SC" | "sc" | "SD" | "sd" | "SE" | "se" | "SG" | "sg" | "SH" | "sh" | "SI" | "si" | "SJ" | "sj" | "SK" | "sk" | "SL" | "sl" | "SM" | "sm" | "SN" | "sn" | "SO" | "so" | "SR" | "sr" | "SS" | "ss" | "ST" | "st" | "SV" | "sv" | "SX" | "sx" | "SZ" | "sz" | "TC" | "tc" | "TD" | "td" | "TG" | "tg" | "TH" | "th" | "TN" | "tn" | "TO" | "to" | "TR" | "tr" | "TT" | "tt" | "TZ" | "tz" | "UA" | "ua" | "UG" | "ug" | "UY" | "uy" | "UZ" | "uz" | "VA" | "va" | "VC" | "vc" | "VE" | "ve" | "VG" | "vg" | "VI" | "vi" | "VN" | "vn" | "VU" | "vu" | "WF" | "wf" | "XK" | "xk" | "YT" | "yt" | "ZA" | "za" | "ZM" | "zm" | "ZW" | "zw";
                /** @description Any IANA time zone name or alias (Asia/Kolkata, Europe/Kyiv, US/Eastern, Etc/GMT+5, utc), default UTC; answered as `timezone` in the zone database's spelling */
                tz?: string;
                /** @description 1–100: the next N events from today in tz (today's included), across the year boundary (up to 3 years ahead), instead of one year's list; not with year */
                upcoming?: number;
                /** @description 1970–2100; default: this year in tz */
                year?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All events of the year in date order (with upcoming: the next N from today) */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            /** @description year, region, lang, upcoming or tz is invalid, or year and upcoming are both given (error.field names it) */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An Authorization header was sent with an invalid key (omit it or send a valid one) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listApiRequests: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description Page size, 1–100 (default 20) */
                limit?: number;
                /** @description Only this request */
                request_id?: string;
                /** @description Only this status (`422`) or class (`4xx`) */
                status?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of requests */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiRequestList"];
                };
            };
            /** @description An invalid query parameter */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listRundowns: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description Page size, 1–100 (default 20) */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of rundowns */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RundownList"];
                };
            };
            /** @description An invalid query parameter, or a cursor this API did not return */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createRundown: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRundown"];
            };
        };
        responses: {
            /** @description Created; Location names it; control_url is shown only here */
            201: {
                headers: {
                    Location: components["headers"]["Location"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rundown"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No API access, the plan's stored-timer limit reached by the timers to create, or as many rundowns as the plan stores timers held already */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An existing timer is an item of another rundown already; error.field names the item */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An invalid value; error.field names it, items[i].field for an item */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getRundown: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rundown's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rundown as it is now */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rundown"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rundown with this id; ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteRundown: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rundown's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RundownDeleted"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access, or a control token was used where only an API key is accepted */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rundown with this id; ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateRundown: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rundown's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRundown"];
            };
        };
        responses: {
            /** @description The updated rundown */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rundown"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access, or a control token was used where only an API key is accepted */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rundown with this id; ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An item to remove is running, or an added timer is in another rundown; error.field names it */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A field is invalid; error.field names the first offending field */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    runRundownAction: {
        parameters: {
            query?: {
                /** @description goto only (required there) */
                index?: number;
                /** @description adjust only (required there): seconds to add, negative to take away, not 0 */
                seconds?: number;
            };
            header?: never;
            path: {
                /** @description What to do (adjust: the live item's time, ?seconds=N); any other answers 404 */
                action: "start" | "next" | "previous" | "goto" | "stop" | "reset" | "adjust";
                /** @description The rundown's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rundown after the action */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rundown"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rundown with this id, or no such action */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed now; error.field is action (adjust: the live item is not running or paused) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description index or seconds missing or out of range, or given to another action; error.field names it */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rotateRundownControlToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rundown's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rundown with its new control_url */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rundown"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access, or a control token was used where only an API key is accepted */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rundown with this id; ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    setRundownItemMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rundown's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessageChange"];
            };
        };
        responses: {
            /** @description The rundown; the item's message is on its timer */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rundown"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rundown with this id; ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The live item's timer was deleted */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An invalid field; error.field names it */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    clearRundownItemMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rundown's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rundown */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rundown"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rundown with this id; ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The action is not valid in the timer's current state (error.field is action or state) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    setRundownMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rundown's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessageChange"];
            };
        };
        responses: {
            /** @description The rundown with its message */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rundown"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rundown with this id; ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An invalid field; error.field names it */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    clearRundownMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rundown's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rundown without a message */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rundown"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rundown with this id; ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    changeRundownState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rundown's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RundownStateChange"];
            };
        };
        responses: {
            /** @description The rundown after the action */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rundown"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rundown with this id; ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed now (next at the last item, stop when not running, start while the item runs); error.field is action */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An unknown action (error.field is action); goto without index, an index out of range, or index with another action (error.field is index) */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listTimers: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description Page size, 1–100 (default 20) */
                limit?: number;
                /** @description Only timers of this type */
                type?: "countdown" | "event" | "interval";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of timers */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimerList"];
                };
            };
            /** @description An invalid query parameter, or a cursor this API did not return */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createTimer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTimer"];
            };
        };
        responses: {
            /** @description Created; Location names the timer; control_url is shown only here (and by POST /timers/{id}/control_token) */
            201: {
                headers: {
                    Location: components["headers"]["Location"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timer"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access, or the plan's stored-timer limit is reached (the message names it) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A field is invalid; error.field names the first offending field */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getTimer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The timer as it is now */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timer"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer with this id (or it expired); ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteTimer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access, or a control token was used where only an API key is accepted */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer with this id (or it expired); ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The timer is the live item of a running rundown; the message names the rundown (POST /rundowns/{id}/actions/stop, next or goto first) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateTimer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTimer"];
            };
        };
        responses: {
            /** @description The updated timer */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timer"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access, or a control token was used where only an API key is accepted */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer with this id (or it expired); ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The change is not allowed in the timer's state (duration of a running countdown, target_date of a completed or stopped event, overtime turned off past zero); error.field names it and the message says why */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A field is invalid; error.field names the first offending field */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    runTimerAction: {
        parameters: {
            query?: {
                /** @description adjust only (required there): seconds to add, negative to take away, not 0 */
                seconds?: number;
            };
            header?: never;
            path: {
                /** @description What to do; any other answers 404 */
                action: "start" | "pause" | "resume" | "reset" | "stop" | "adjust";
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The timer after the action */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timer"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer with this id (or it expired), or no such action */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The action is not valid in the timer's state; error.field is action */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description seconds missing, 0 or out of range for adjust, or given to another action; error.field is seconds */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rotateControlToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The timer with its new control_url */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timer"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access, or a control token was used where only an API key is accepted */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer with this id (or it expired); ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description Page size, 1–100 (default 20) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryList"];
                };
            };
            /** @description An invalid query parameter, or a cursor this API did not return */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access, or a control token was used (only an API key is accepted) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer with this id (or it expired) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    redeliverDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The delivery's (event's) id */
                delivery_id: string;
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending again; attempted at once */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access, or a control token was used (only an API key is accepted) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer or no delivery with these ids */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An attempt of it is under way, its endpoint is disabled or deleted, or it changed meanwhile */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The timer has no webhook_url (error.field is webhook_url) */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    setTimerMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessageChange"];
            };
        };
        responses: {
            /** @description The timer with its message */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timer"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer with this id (or it expired); ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A field is invalid; error.field names the first offending field */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    clearTimerMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The timer without a message */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timer"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer with this id (or it expired); ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    changeTimerState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StateChange"];
            };
        };
        responses: {
            /** @description The timer after the action */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timer"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer with this id (or it expired); ids of any other shape also answer 404 */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The action is not valid in the timer's state (e.g. pause while idle, pause or resume an event timer); error.field is action or state and the message names both */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A field is invalid; error.field names the first offending field */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    sendTestWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The timer's id; any other shape answers 404 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WebhookTestRequest"];
            };
        };
        responses: {
            /** @description The attempt's outcome (also when the receiver failed) */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestDelivery"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access, or a control token was used (only an API key is accepted) */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No timer with this id (or it expired) */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The timer has no webhook_url (error.field is webhook_url) */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded, or more than 10 test sends this minute for the account; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All of them */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpoint"];
            };
        };
        responses: {
            /** @description Created; Location names it */
            201: {
                headers: {
                    Location: components["headers"]["Location"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The account already has 10 endpoints (delete or reuse one) */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An invalid field (error.field names it), e.g. a URL refused as a timer's webhook_url would be */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id; any other shape answers 404 */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No webhook endpoint with this id in the account */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id; any other shape answers 404 */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointDeleted"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No webhook endpoint with this id in the account */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id; any other shape answers 404 */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpoint"];
            };
        };
        responses: {
            /** @description The endpoint as changed */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No webhook endpoint with this id in the account */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A field is invalid; error.field names the first offending field */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    sendEndpointExample: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id; any other shape answers 404 */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EndpointExampleRequest"];
            };
        };
        responses: {
            /** @description The attempt's outcome (also when the receiver failed) and the payload sent */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndpointExample"];
                };
            };
            /** @description Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid credentials, or a control token (only an API key is accepted here) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The plan has no API access */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No webhook endpoint with this id in the account */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Another method on this path; the Allow header lists the ones it answers */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body over 16 KiB */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A field is invalid; error.field names the first offending field */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit exceeded, or more than 10 test sends this minute for the account; wait Retry-After seconds */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error; the message quotes the request id */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The service cannot reach its storage right now; retry later */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    webhook_interval_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IntervalCompletedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_interval_round_end: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IntervalRoundEndEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_rundown_advanced: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RundownAdvancedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_rundown_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RundownCompletedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_rundown_started: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RundownStartedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_timer_adjusted: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimerAdjustedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_timer_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimerCompletedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_timer_danger: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimerDangerEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_timer_paused: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimerPausedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_timer_reset: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimerResetEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_timer_resumed: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimerResumedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_timer_started: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimerStartedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_timer_stopped: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimerStoppedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_timer_warning: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TimerWarningEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_webhook_test: {
        parameters: {
            query?: never;
            header: {
                /** @description Standard Webhooks: the event id */
                "webhook-id": string;
                /** @description Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded bytes after `whsec_`; one per current secret */
                "webhook-signature": string;
                /** @description Standard Webhooks: Unix seconds of this attempt; refuse values too far from now */
                "webhook-timestamp": string;
                /** @description HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole secret string (UTF-8). During a rotation's grace period it keeps the previous secret. */
                "x-service-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestEvent"];
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (or no answer within the timeout) is a failed attempt */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
