package golden_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// Record an agent's model call once against a live API (here a fake
// one), then replay it with no API at all; a changed prompt misses, and
// the miss says what differs.
func ExampleNewTransport() {
	dir, _ := os.MkdirTemp("", "golden")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "TestAgent.http.json")
	ask := func(client *http.Client, prompt string) (string, error) {
		body := `{"model": "gpt-4o", "messages": [{"role": "system", "content": "` + prompt + `"}, {"role": "user", "content": "Cancel Z7GOZK."}]}`
		req, _ := http.NewRequest(http.MethodPost, "https://api.openai.com/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer sk-never-written-0123456789")
		resp, err := client.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return fmt.Sprint(resp.StatusCode, " ", len(data) > 0), nil
	}

	live := judgefake.NewTransport(judgefake.Text("Your reservation is cancelled."))
	rec, _ := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	fmt.Println(ask(rec.Client(), "You are an airline agent."))
	if err := rec.Save(); err != nil {
		fmt.Println(err)
	}

	replay, _ := golden.NewTransport(path, nil) // ModeReplay: never sends a request
	fmt.Println(ask(replay.Client(), "You are an airline agent."))

	_, err := ask(replay.Client(), "You are a terse airline agent.")
	var nr *golden.NotRecordedError
	fmt.Println(errors.Is(err, golden.ErrNotRecorded), errors.As(err, &nr))
	fmt.Println(nr.Request)
	for _, d := range nr.Differs {
		fmt.Println(d)
	}
	// Output:
	// 200 true <nil>
	// 200 true <nil>
	// true true
	// POST /v1/chat/completions
	// body.messages[0].content: now "You are a terse airline agent.", recorded "You are an airline agent."
}
