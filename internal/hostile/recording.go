package hostile

import (
	"bufio"
	"fmt"
	"os"
)

// WriteJudgeRecording writes to path a valid judge recording (the format
// package golden writes) of at least size bytes: refund-judging entries
// of about 1.5 KB each, their keys distinct and sorted.
func WriteJudgeRecording(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprint(w, "{\n  \"version\": 1,\n  \"entries\": [\n")
	written := int64(0)
	for i := 0; written < size; i++ {
		if i > 0 {
			fmt.Fprint(w, ",\n")
		}
		n, _ := fmt.Fprintf(w, entryFormat, i, i)
		written += int64(n)
	}
	fmt.Fprint(w, "\n  ]\n}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// entryFormat is one entry: its key's number, then the order number.
const entryFormat = `    {
      "key": "sha256:%064x",
      "judge": {
        "provider": "openai",
        "model": "gpt-4.1-mini",
        "settings": {
          "seed": 1,
          "temperature": 0
        },
        "prompt_version": "evalkit-judge/1"
      },
      "request": {
        "criteria": "Confirms the refund and states the amount",
        "content": "Your refund of $42.00 for order #W%06d was issued in full; you will see it on your card within 5-7 business days. Thank you for your patience, and sorry for the trouble with the delivery.",
        "scale": {
          "min": 0,
          "max": 10
        }
      },
      "digests": {
        "content": "2b1050c6f0c1bdd2",
        "criteria": "d872d002dc35bd07",
        "scale": "4c36f606fc169349"
      },
      "verdict": {
        "score": 0.9,
        "raw_score": 9,
        "scored": true,
        "reasoning": "The reply confirms the refund, states the amount and the window, and thanks the customer.",
        "fields": {
          "reasoning": "The reply confirms the refund, states the amount and the window, and thanks the customer.",
          "score": 9
        },
        "raw": "{\"score\": 9, \"reasoning\": \"The reply confirms the refund, states the amount and the window, and thanks the customer.\"}",
        "model": "gpt-4.1-mini-2025-04-14",
        "usage": {
          "input_tokens": 412,
          "output_tokens": 38,
          "cost_usd": 0.0002256
        }
      },
      "recorded_at": "2026-01-01T00:00:00Z"
    }`
