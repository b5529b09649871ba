package airline

import (
	"encoding/json"
	"fmt"

	"github.com/evalkit-go/evalkit"
)

// ToolSpecs are the tools the agent offers its model: six of τ-bench's
// airline tools, over the DB.
func ToolSpecs() []evalkit.ToolSpec {
	obj := func(props, required string) json.RawMessage {
		return json.RawMessage(`{"type": "object", "properties": {` + props + `}, "required": [` + required + `]}`)
	}
	flights := `"flights": {"type": "array", "items": {"type": "object", "properties": {"flight_number": {"type": "string"}, "date": {"type": "string"}}, "required": ["flight_number", "date"]}}`
	passengers := `"passengers": {"type": "array", "items": {"type": "object", "properties": {"first_name": {"type": "string"}, "last_name": {"type": "string"}, "dob": {"type": "string"}}, "required": ["first_name", "last_name", "dob"]}}`
	id := `"reservation_id": {"type": "string"}`
	return []evalkit.ToolSpec{
		{Name: "get_user_details", Description: "Get the details of a user, including their reservations.", Parameters: obj(`"user_id": {"type": "string"}`, `"user_id"`)},
		{Name: "get_reservation_details", Description: "Get the details of a reservation.", Parameters: obj(id, `"reservation_id"`)},
		{Name: "think", Description: "Think about something. It changes nothing.", Parameters: obj(`"thought": {"type": "string"}`, `"thought"`)},
		{Name: "update_reservation_flights", Description: "Change the cabin and flights of a reservation, paying the difference.", Parameters: obj(id+`, "cabin": {"type": "string"}, `+flights+`, "payment_id": {"type": "string"}`, `"reservation_id", "cabin", "flights", "payment_id"`)},
		{Name: "update_reservation_passengers", Description: "Change the passengers of a reservation.", Parameters: obj(id+", "+passengers, `"reservation_id", "passengers"`)},
		{Name: "update_reservation_baggages", Description: "Change the checked bags of a reservation, paying for the new non-free ones.", Parameters: obj(id+`, "total_baggages": {"type": "integer"}, "nonfree_baggages": {"type": "integer"}, "payment_id": {"type": "string"}`, `"reservation_id", "total_baggages", "nonfree_baggages", "payment_id"`)},
	}
}

// Call runs the tool name with the model's arguments (a JSON object) on
// db and returns what the model is told: the record read or changed, as
// JSON, or "Error: …" as τ-bench's tools report a failure. The
// ground-truth actions of a τ-bench task, run through Call on a fresh
// database, make the state a correct run leaves.
func (db *DB) Call(name string, args json.RawMessage) string {
	out, err := db.call(name, args)
	if err != nil {
		return "Error: " + err.Error()
	}
	data, err := json.Marshal(out)
	if err != nil {
		return "Error: " + err.Error()
	}
	return string(data)
}

func (db *DB) call(name string, args json.RawMessage) (any, error) {
	var a struct {
		UserID          string      `json:"user_id"`
		ReservationID   string      `json:"reservation_id"`
		Cabin           string      `json:"cabin"`
		Flights         []Flight    `json:"flights"`
		PaymentID       string      `json:"payment_id"`
		Passengers      []Passenger `json:"passengers"`
		TotalBaggages   int         `json:"total_baggages"`
		NonfreeBaggages int         `json:"nonfree_baggages"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object of this tool's: %v", err)
	}
	switch name {
	case "get_user_details":
		u, ok := db.Users[a.UserID]
		if !ok {
			return nil, fmt.Errorf("user %s %w", a.UserID, ErrNotFound)
		}
		return u, nil
	case "get_reservation_details":
		return db.reservation(a.ReservationID)
	case "think":
		return "", nil
	case "update_reservation_flights":
		return db.UpdateFlights(a.ReservationID, a.Cabin, a.Flights, a.PaymentID)
	case "update_reservation_passengers":
		return db.UpdatePassengers(a.ReservationID, a.Passengers)
	case "update_reservation_baggages":
		return db.UpdateBaggages(a.ReservationID, a.TotalBaggages, a.NonfreeBaggages, a.PaymentID)
	}
	return nil, fmt.Errorf("unknown tool %s", name)
}
