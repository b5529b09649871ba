// Package openaiembedder is an evalkit.Embedder over HTTP, with no SDK:
// POST {base}/embeddings in the shape OpenAI serves it, and with it Azure
// OpenAI, vLLM, Ollama, LiteLLM, llama.cpp and most gateways.
//
//	e := openaiembedder.FromEnv() // OPENAI_API_KEY, OPENAI_BASE_URL, EVALKIT_EMBEDDING_MODEL
//	vecs, err := e.Embed(ctx, []string{"Refunds take 30 days.", "You get your money back within a month."})
//	// vecs: two vectors of 1536 components (text-embedding-3-small)
//
// Texts are sent in batches (WithBatchSize, default 256 a request); the
// vectors come back in the order of the texts whatever order the server
// lists them in. Calls are retried as the real judges' are (package
// internal/judgehttp: HTTP 408, 429, 5xx and connection failures, backoff
// honouring Retry-After), never follow redirects, keep every credential
// out of their errors, and count against evaltest's judge budget
// (EVALKIT_MAX_JUDGE_CALLS, EVALKIT_MAX_COST_USD) as a judge's do.
//
// An embedder that cannot embed every text returns an error, never a
// vector: no texts, an empty text (the API refuses one), an HTTP failure,
// or an answer that does not hold one finite vector per text, all of one
// length.
//
// In a test, evaltest.WithEmbedder(openaiembedder.FromEnv()) records the
// vectors into the test's judge recording and replays them with no
// network and no key, as judges' verdicts are (golden.EmbedRecorder).
package openaiembedder
