package openaijudge

import (
	"maps"
	"math"

	"github.com/evalkit-go/evalkit"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input  float64 // USD per 1M input (prompt) tokens
	Output float64 // USD per 1M output (completion) tokens
}

// cost is u's price in USD, rounded to 1e-12 USD: 0.0002344, not the
// 0.00023440000000000003 the float sum makes, which recordings would keep.
func (p Price) cost(u evalkit.Usage) float64 {
	usd := (float64(u.InputTokens)*p.Input + float64(u.OutputTokens)*p.Output) / 1e6
	return math.Round(usd*1e12) / 1e12
}

// defaultPrices are OpenAI's standard-tier text prices in USD per 1M
// tokens, checked on 2026-11-29 against copies of OpenAI's pricing page
// (developers.openai.com/api/docs/pricing) — the newest dated 2026-06-04 —
// and cross-checked with two secondary price lists of 2026-03 and 2026-05.
// Cached-input discounts, Batch/Flex/Priority tiers and long-context
// surcharges are not modelled: the cost is input × Input + output × Output.
var defaultPrices = map[string]Price{
	"gpt-5.5":      {Input: 5.00, Output: 30.00},
	"gpt-5.4":      {Input: 2.50, Output: 15.00},
	"gpt-5.4-mini": {Input: 0.75, Output: 4.50},
	"gpt-5.4-nano": {Input: 0.20, Output: 1.25},
	"gpt-5":        {Input: 1.25, Output: 10.00},
	"gpt-5-mini":   {Input: 0.25, Output: 2.00},
	"gpt-5-nano":   {Input: 0.05, Output: 0.40},
	"gpt-4.1":      {Input: 2.00, Output: 8.00},
	"gpt-4.1-mini": {Input: 0.40, Output: 1.60},
	"gpt-4.1-nano": {Input: 0.10, Output: 0.40},
	"gpt-4o":       {Input: 2.50, Output: 10.00},
	"gpt-4o-mini":  {Input: 0.15, Output: 0.60},
}

// DefaultPrices returns a copy of the built-in price table: OpenAI's
// standard-tier prices for its current chat models, USD per 1M tokens, as
// of 2026-11-29. A verdict's Usage.CostUSD is priced by the model the reply
// names, then the model asked for, each also without its snapshot date
// ("gpt-4.1-mini-2025-04-14" is priced as "gpt-4.1-mini"). A model in no
// table — a local model, an Azure deployment name, an OpenRouter
// "vendor/model" — costs 0: unknown, not free. WithPrices adds to the
// table.
func DefaultPrices() map[string]Price { return maps.Clone(defaultPrices) }
