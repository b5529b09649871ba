// Package simulate drives an agent with a simulated user, turn by turn,
// until the user's goal is met or abandoned, and returns the whole
// conversation as an evalkit.Transcript to check.
//
//	user := simulate.ModelUser{
//		Model:   openaijudge.FromEnv(), // any Model: a chat model with an identity
//		Persona: "Omar Rossi, a gold member; polite, brief",
//		Goal:    "Add 3 checked bags to the New York to Chicago trip and pay by gift card",
//		Facts:   []string{"Your user id is omar_rossi_1241"},
//	}
//	tr, err := simulate.Run(ctx, user, myAgent, simulate.System(policy), simulate.MaxTurns(8))
//
// The agent is the user's own Go function (Agent): it takes the
// conversation so far and returns the messages of its turn — text, tool
// calls and their results. The user is a User: a ModelUser, a model told
// who to play (Persona), what they want (Goal), what they know (Facts) and
// to write StopMarker ("###STOP###", τ-bench's convention) when done; or
// a scripted user (judgefake.Script replays a list of turns, such as a
// real τ-bench run's; judgefake.UserRules answers by rules). A run stops
// when the user stops, when a judge finds the goal met (StopWhenGoalMet),
// or after MaxTurns; StopReason says which.
//
// A ModelUser's model calls are recorded and replayed like judge verdicts
// (NewRecorder, into the test's HTTP recording, under EVALKIT_MODE), so a
// multi-turn test is deterministic in CI with no network and no key.
// Package evaltest's Simulate does that per test. A replay miss is a
// *MissError naming the turn where the conversation parts from the
// recording and what the agent said then and now. Scripted users are not
// recorded: they need no network.
//
// As τ-bench's user simulator (a model given the task's instruction,
// ending with ###STOP###), DeepEval's ConversationSimulator (a user
// description and scenario, max turns) and promptfoo's simulated-user
// provider.
package simulate
