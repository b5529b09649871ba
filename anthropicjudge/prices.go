package anthropicjudge

import (
	"maps"
	"math"

	"github.com/evalkit-go/evalkit"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input  float64 // USD per 1M input tokens
	Output float64 // USD per 1M output tokens
}

// cost is u's price in USD, rounded to 1e-12 USD: 0.0002344, not the
// 0.00023440000000000003 the float sum makes, which recordings would keep.
func (p Price) cost(u evalkit.Usage) float64 {
	usd := (float64(u.InputTokens)*p.Input + float64(u.OutputTokens)*p.Output) / 1e6
	return math.Round(usd*1e12) / 1e12
}

// defaultPrices are Anthropic's base input and output prices in USD per 1M
// tokens, checked on 2026-11-29 against copies of Anthropic's pricing and
// models-overview pages (platform.claude.com/docs) and secondary price
// lists of 2026-03 to 2026-06. Keys are model aliases; dated snapshot IDs
// are priced by their alias. Prompt-caching and batch rates and the
// long-context premium are not modelled.
var defaultPrices = map[string]Price{
	"claude-opus-4-7":   {Input: 5.00, Output: 25.00},
	"claude-opus-4-6":   {Input: 5.00, Output: 25.00},
	"claude-opus-4-5":   {Input: 5.00, Output: 25.00},
	"claude-opus-4-1":   {Input: 15.00, Output: 75.00},
	"claude-opus-4":     {Input: 15.00, Output: 75.00},
	"claude-sonnet-4-6": {Input: 3.00, Output: 15.00},
	"claude-sonnet-4-5": {Input: 3.00, Output: 15.00},
	"claude-sonnet-4":   {Input: 3.00, Output: 15.00},
	"claude-haiku-4-5":  {Input: 1.00, Output: 5.00},
	"claude-3-5-haiku":  {Input: 0.80, Output: 4.00},
	"claude-3-haiku":    {Input: 0.25, Output: 1.25},
}

// DefaultPrices returns a copy of the built-in price table: Anthropic's
// base prices for its Claude models, USD per 1M tokens, as of 2026-11-29.
// A verdict's Usage.CostUSD is priced by the model the reply names, then
// the model asked for, each also without its snapshot date
// ("claude-haiku-4-5-20251001" is priced as "claude-haiku-4-5"). A model in
// no table costs 0: unknown, not free. WithPrices adds to the table.
func DefaultPrices() map[string]Price { return maps.Clone(defaultPrices) }
