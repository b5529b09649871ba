// Package openaiclassifier is an evalkit.Classifier over HTTP, with no
// SDK: OpenAI's moderation endpoint (POST {base}/moderations, text and
// images, omni-moderation-latest) and any server that speaks it, or a
// text-classification server in the shape of Hugging Face's Text
// Embeddings Inference (POST {base}/predict, {"inputs": text} answered
// with [{"label", "score"}, ...]) for sentiment, toxicity and emotion
// models such as cardiffnlp/twitter-roberta-base-sentiment-latest or
// unitary/toxic-bert.
//
//	c := openaiclassifier.FromEnv() // OPENAI_API_KEY, OPENAI_BASE_URL
//	cl, err := c.Classify(ctx, evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "You idiot."})
//	// cl.Scores: harassment 0.93, hate 0.01, ... (every category's score in [0,1])
//
//	tei := openaiclassifier.New(openaiclassifier.WithAPI(openaiclassifier.Predict),
//		openaiclassifier.WithBaseURL("http://localhost:8080"), openaiclassifier.WithModel("unitary/toxic-bert"))
//
// Calls are retried as the real judges' are (package internal/judgehttp:
// HTTP 408, 429, 5xx and connection failures, backoff honouring
// Retry-After), never follow redirects, and keep every credential out of
// their errors. A classifier that cannot classify returns an error, never
// a classification: an audio clip (neither API reads audio: give
// audio_emotion a classifier of your own), an image on the predict API, a
// request with candidate labels (both APIs score their model's own
// labels), a model other than the predict server's, an HTTP failure, or an
// answer that is not one result of scores in [0,1].
//
// In a test, WithHTTPClient(evaltest.HTTPClient(t).Client) records the calls once
// and replays them, as judges' verdicts are.
package openaiclassifier
