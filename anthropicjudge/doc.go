// Package anthropicjudge is an evalkit.Judge backed by Anthropic's Messages
// API (POST {base}/v1/messages) over plain net/http, with no SDK: it adds
// nothing to a test build beyond the standard library.
//
//	j := anthropicjudge.FromEnv() // ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, EVALKIT_JUDGE_MODEL
//	v, err := j.Judge(ctx, evalkit.JudgeRequest{
//		Criteria: "Confirms the refund and states the amount",
//		Content:  "Your refund of $42 has been issued.",
//	})
//	// v.Score in [0,1], v.Reasoning, v.Model, v.Usage (tokens, cost in USD)
//
// Structured output is a forced tool call: the request offers one tool,
// "evalkit_verdict", whose input_schema is the verdict schema, and sets
// tool_choice {"type": "tool", "name": "evalkit_verdict"}, so the model's
// answer is the tool's input — a JSON object — which evalkit.ParseVerdict
// reads. A reply that calls the tool twice, or calls another, is an error,
// never a verdict picked from it. Anthropic also offers JSON outputs
// (output_config.format, formerly the structured-outputs-2025-11-13 beta's
// output_format) with constrained decoding, but only on recent models
// (Claude Haiku 4.5, Sonnet 4.5 and later) and not through every gateway; a
// forced tool call works on every Claude model of the Messages API, on
// Amazon Bedrock and Vertex AI, and through Anthropic-compatible proxies.
// What constrained decoding would add — a guarantee of the schema —
// ParseVerdict checks anyway: an answer it cannot read is an error, never a
// verdict. (A forced tool call cannot be combined with extended thinking,
// which this judge never turns on.) A request that declares a verdict
// format (JudgeRequest.Format, package verdicts) asks for it as text, with
// no tool, and the reply's text is read by that format's rule.
//
// The request also carries the headers x-api-key and anthropic-version:
// 2023-06-01, temperature 0 (WithoutTemperature for models that reject it,
// such as Claude Opus 4.7) and max_tokens, which the API requires
// (DefaultMaxTokens unless WithMaxTokens).
//
// Failures are retried with backoff: HTTP 408, 429, 5xx and 529
// (overloaded), attempts that time out (two minutes each by default) and
// connection failures, DefaultMaxRetries times (WithMaxRetries sets it, up
// to MaxRetries), waiting 500 ms × 2^n (at most 30 s) or the server's
// Retry-After (at most a minute). A wait that would pass the context's
// deadline is not started: the call fails at once and says so. Errors name
// the cause, the HTTP status, the server's message (bounded) and the number
// of attempts:
//
//	anthropicjudge: 4 attempts: HTTP 529 overloaded: Overloaded
//
// Redirects are never followed: a 3xx from the API is an error naming the
// status and the scheme and host it pointed to, not retried. net/http
// would forward every header but Authorization and cookies to the new
// host, the API key among them.
//
// No credential — the API key, a secret header's value, the base URL's
// password or query — appears in an error, a verdict or the Identity (see
// Judge.Judge for the rule).
package anthropicjudge
