package airline

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
)

// DB is the airline's database, in memory: the state the agent's tools
// read and change, and the state a test compares with the one a correct
// run leaves (as τ-bench scores a run). Its shapes are τ-bench's.
type DB struct {
	Users        map[string]*User        `json:"users"`
	Reservations map[string]*Reservation `json:"reservations"`
	// Fares are the seat prices in USD: flight number → date → cabin →
	// price.
	Fares map[string]map[string]map[string]int `json:"fares"`
}

// User is a customer.
type User struct {
	Name            Name                      `json:"name"`
	Address         Address                   `json:"address"`
	Email           string                    `json:"email"`
	DOB             string                    `json:"dob"`
	PaymentMethods  map[string]*PaymentMethod `json:"payment_methods"`
	SavedPassengers []Passenger               `json:"saved_passengers"`
	Membership      string                    `json:"membership"`
	Reservations    []string                  `json:"reservations"`
}

// Name is a person's name.
type Name struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
}

// Address is a postal address.
type Address struct {
	Address1 string `json:"address1"`
	Address2 string `json:"address2"`
	City     string `json:"city"`
	Country  string `json:"country"`
	Province string `json:"province"`
	Zip      string `json:"zip"`
}

// PaymentMethod is a card, a gift card or a certificate; Amount is a gift
// card's or certificate's balance in USD.
type PaymentMethod struct {
	Source   string `json:"source"`
	ID       string `json:"id"`
	Amount   int    `json:"amount,omitempty"`
	Brand    string `json:"brand,omitempty"`
	LastFour string `json:"last_four,omitempty"`
}

// Passenger is a traveller on a reservation.
type Passenger struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	DOB       string `json:"dob"`
}

// Reservation is a booking.
type Reservation struct {
	ReservationID   string      `json:"reservation_id"`
	UserID          string      `json:"user_id"`
	Origin          string      `json:"origin"`
	Destination     string      `json:"destination"`
	FlightType      string      `json:"flight_type"`
	Cabin           string      `json:"cabin"`
	Flights         []Flight    `json:"flights"`
	Passengers      []Passenger `json:"passengers"`
	PaymentHistory  []Payment   `json:"payment_history"`
	CreatedAt       string      `json:"created_at"`
	TotalBaggages   int         `json:"total_baggages"`
	NonfreeBaggages int         `json:"nonfree_baggages"`
	Insurance       string      `json:"insurance"`
}

// Flight is one leg of a reservation, its price in USD.
type Flight struct {
	Origin       string `json:"origin"`
	Destination  string `json:"destination"`
	FlightNumber string `json:"flight_number"`
	Date         string `json:"date"`
	Price        int    `json:"price"`
}

// Payment is a charge (positive) or refund (negative) in USD.
type Payment struct {
	PaymentID string `json:"payment_id"`
	Amount    int    `json:"amount"`
}

// LoadDB reads a database from a JSON file.
func LoadDB(path string) (*DB, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var db DB
	if err := json.Unmarshal(data, &db); err != nil {
		return nil, fmt.Errorf("airline: %s: %w", path, err)
	}
	return &db, nil
}

// ErrNotFound is what the tools report for an unknown user or reservation.
var ErrNotFound = errors.New("not found")

func (db *DB) reservation(id string) (*Reservation, error) {
	r, ok := db.Reservations[id]
	if !ok {
		return nil, fmt.Errorf("reservation %s %w", id, ErrNotFound)
	}
	return r, nil
}

// charge takes amount USD (a refund when negative) from the reservation
// owner's payment method id: a gift card or certificate must hold it.
func (db *DB) charge(r *Reservation, id string, amount int) error {
	u, ok := db.Users[r.UserID]
	if !ok {
		return fmt.Errorf("user %s %w", r.UserID, ErrNotFound)
	}
	pm, ok := u.PaymentMethods[id]
	if !ok {
		return fmt.Errorf("payment method %s %w", id, ErrNotFound)
	}
	if pm.Source == "gift_card" || pm.Source == "certificate" {
		if pm.Amount < amount {
			return fmt.Errorf("%s holds $%d, not enough for $%d", id, pm.Amount, amount)
		}
		pm.Amount -= amount
	}
	if amount != 0 {
		r.PaymentHistory = append(r.PaymentHistory, Payment{PaymentID: id, Amount: amount})
	}
	return nil
}

// UpdateFlights moves a reservation to cabin and flights, repriced from
// Fares, charging or refunding the difference to payment.
func (db *DB) UpdateFlights(id, cabin string, flights []Flight, payment string) (*Reservation, error) {
	r, err := db.reservation(id)
	if err != nil {
		return nil, err
	}
	old, total := 0, 0
	for _, f := range r.Flights {
		old += f.Price
	}
	legs := make([]Flight, len(flights))
	for i, f := range flights {
		price, ok := db.Fares[f.FlightNumber][f.Date][cabin]
		if !ok {
			return nil, fmt.Errorf("no %s seat on %s on %s", cabin, f.FlightNumber, f.Date)
		}
		legs[i] = Flight{FlightNumber: f.FlightNumber, Date: f.Date, Price: price, Origin: f.Origin, Destination: f.Destination}
		if j := slices.IndexFunc(r.Flights, func(g Flight) bool { return g.FlightNumber == f.FlightNumber }); j >= 0 {
			legs[i].Origin, legs[i].Destination = r.Flights[j].Origin, r.Flights[j].Destination
		}
		total += price
	}
	if err := db.charge(r, payment, total-old); err != nil {
		return nil, err
	}
	r.Cabin, r.Flights = cabin, legs
	return r, nil
}

// UpdatePassengers replaces a reservation's passengers, as many as it has.
func (db *DB) UpdatePassengers(id string, passengers []Passenger) (*Reservation, error) {
	r, err := db.reservation(id)
	if err != nil {
		return nil, err
	}
	if len(passengers) != len(r.Passengers) {
		return nil, fmt.Errorf("the reservation has %d passengers, not %d", len(r.Passengers), len(passengers))
	}
	r.Passengers = slices.Clone(passengers)
	return r, nil
}

// UpdateBaggages sets a reservation's checked bags, charging $50 for each
// new bag that is not free.
func (db *DB) UpdateBaggages(id string, total, nonfree int, payment string) (*Reservation, error) {
	r, err := db.reservation(id)
	if err != nil {
		return nil, err
	}
	if total < 0 || nonfree < 0 || nonfree > total {
		return nil, fmt.Errorf("want 0 <= nonfree (%d) <= total (%d) bags", nonfree, total)
	}
	if err := db.charge(r, payment, 50*max(nonfree-r.NonfreeBaggages, 0)); err != nil {
		return nil, err
	}
	r.TotalBaggages, r.NonfreeBaggages = total, nonfree
	return r, nil
}
