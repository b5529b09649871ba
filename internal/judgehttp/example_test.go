package judgehttp_test

import (
	"fmt"
	"net/http"
	"time"

	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

func ExampleRetryAfter() {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, v := range []string{"20", "Sun, 29 Nov 2026 12:01:00 GMT", "later"} {
		wait, ok := judgehttp.RetryAfter(http.Header{"Retry-After": {v}}, now)
		fmt.Println(wait, ok)
	}
	// Output:
	// 20s true
	// 1m0s true
	// 0s false
}
