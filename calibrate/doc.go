// Package calibrate measures how far an LLM judge agrees with people: a
// gold set of answers labelled by people (Load: JSON Lines of Item, with a
// label, several annotators' labels, or a score) and the judge's outcome
// on each give accuracy, Cohen's kappa, the true-positive and
// true-negative rates and the confusion table; with several annotators,
// Krippendorff's alpha with the judge beside the annotators' own; with
// scores, score agreement. Canary items — known-bad answers a judge must
// fail, known-good ones it must pass — catch a judge that passes
// everything, however its figures look.
//
// evaltest's T.Calibrate runs a gold set through a test's judge, recorded
// as any verdict, and gates on the figures:
//
//	gold, err := calibrate.Load("testdata/gold/refunds.jsonl")
//	...
//	et.Calibrate(gold).AtLeastKappa(0.6).AtLeastTNR(0.8)
//
// The figures are package stats'; this package only joins items and
// outcomes. It needs the standard library and stats.
package calibrate
