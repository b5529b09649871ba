package judgehttp

import "context"

// Meter counts what the judges built on Client spend: every HTTP attempt,
// retries included, and the cost of every reply a judge read usage from.
// It travels in the context a judge is called with (WithMeter), so a
// caller that bounds spending — evaltest's judge budget — meters every
// judge it asks, whoever built it, without the judges knowing of it. A
// judge called with a context that holds no Meter is not metered.
type Meter interface {
	// Attempt is called before each HTTP attempt is sent: n is 1 for a
	// call's first attempt and more for its retries. A non-nil error
	// means the attempt is not sent: the call fails at once with an
	// *Error that wraps it and names the attempts already made.
	Attempt(client string, n int) error
	// Spend is called once for every reply that reported usage, whether
	// or not it held a readable verdict.
	Spend(Cost)
}

// Cost is what one reply cost.
type Cost struct {
	// Client is the judge's client name: "openaijudge".
	Client string
	// Model is the model that answered.
	Model string
	// USD is the reply's price in US dollars; 0 when Priced is false.
	USD float64
	// Priced reports whether the judge's price table knows the model.
	Priced bool
}

type meterKey struct{}

// WithMeter returns a context whose judge calls m meters.
func WithMeter(ctx context.Context, m Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

func meterOf(ctx context.Context) Meter {
	m, _ := ctx.Value(meterKey{}).(Meter)
	return m
}

// Spend tells the context's Meter, if it has one, what a reply cost.
// Judges call it when they read a reply's usage.
func Spend(ctx context.Context, c Cost) {
	if m := meterOf(ctx); m != nil {
		m.Spend(c)
	}
}
