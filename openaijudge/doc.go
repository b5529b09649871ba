// Package openaijudge is an evalkit.Judge backed by any OpenAI-compatible
// chat-completions server — OpenAI, Azure OpenAI, Ollama, vLLM, the
// llama.cpp server, LM Studio, OpenRouter — over plain net/http, with no
// SDK: it adds nothing to a test build beyond the standard library.
//
//	j := openaijudge.FromEnv() // OPENAI_API_KEY, OPENAI_BASE_URL, EVALKIT_JUDGE_MODEL
//	v, err := j.Judge(ctx, evalkit.JudgeRequest{
//		Criteria: "Confirms the refund and states the amount",
//		Content:  "Your refund of $42 has been issued.",
//	})
//	// v.Score in [0,1], v.Reasoning, v.Model, v.Usage (tokens, cost in USD)
//
// A local model:
//
//	j := openaijudge.New(
//		openaijudge.WithBaseURL("http://localhost:11434/v1"),
//		openaijudge.WithModel("qwen3:8b"),
//		openaijudge.WithProvider("ollama"),
//	)
//
// The wire format (POST {base}/chat/completions): the model, a system and a
// user message rendered by evalkit's versioned judge prompt (package
// internal/judgeprompt), temperature 0, a fixed seed, and response_format
// json_schema with strict: true and the verdict schema; max_tokens or
// max_completion_tokens only when set. The reply's first choice is read
// with evalkit.ParseVerdict. See Judge.Judge for the fallback on servers
// without JSON-schema output, and Judge.Identity for what recordings key on.
// A request that declares a verdict format (JudgeRequest.Format, package
// verdicts) is sent with no response_format, the prompt asking for that
// format, and the reply is read by its rule.
//
// Failures are retried with backoff: HTTP 408, 429 and 5xx, attempts that
// time out (two minutes each by default) and connection failures,
// DefaultMaxRetries times (WithMaxRetries sets it, up to MaxRetries),
// waiting 500 ms × 2^n (at most 30 s) or the server's Retry-After (at most
// a minute). A wait that would pass the context's deadline is not started:
// the call fails at once and says so.
// Errors name the cause, the HTTP status, the server's message (bounded)
// and the number of attempts:
//
//	openaijudge: 4 attempts: HTTP 429 rate limited (Retry-After 2s): Rate limit reached for gpt-4.1-mini
//
// Redirects are never followed: a 3xx from the API is an error naming the
// status and the scheme and host it pointed to, not retried. net/http
// would forward every header but Authorization and cookies to the new
// host, the API key among them.
//
// No credential — the API key, a secret header's value, the base URL's
// password or query — appears in an error, a verdict or the Identity (see
// Judge.Judge for the rule).
package openaijudge
