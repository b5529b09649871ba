package evaltest

import (
	"fmt"
	"os"
	"strings"

	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// envWhole names the variable that makes recordings hold judge requests
// whole: EVALKIT_RECORD_WHOLE=1 records each request as it was asked
// (golden.WithWholeRequests) instead of excerpts of its long texts, so
// `evalkit golden audit` can ask the live judge again every verdict it
// records. Unset, empty or 0: excerpts, the default. Keys are the same
// either way.
const envWhole = "EVALKIT_RECORD_WHOLE"

// recorderOptions are the golden options the environment asks for; an
// error names a value that is not one.
func recorderOptions() ([]golden.Option, error) {
	switch v := strings.TrimSpace(os.Getenv(envWhole)); v {
	case "", "0", "false":
		return nil, nil
	case "1", "true":
		return []golden.Option{golden.WithWholeRequests()}, nil
	default:
		return nil, fmt.Errorf("evaltest: %s=%q: want 1 (record judge requests whole) or 0", envWhole, judgehttp.Bound(v, 40))
	}
}
