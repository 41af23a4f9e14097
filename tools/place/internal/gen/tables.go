package main

// regionNames names the first-level divisions the gazetteer knows, by
// GeoNames country code and admin1 code. GeoNames' cities file carries only
// the codes; the names come from:
//   - US: ISO 3166-2:US (GeoNames uses the USPS/ISO subdivision codes);
//   - CA, AU, GB: GeoNames' admin1CodesASCII.txt (CA.01 Alberta …,
//     AU.01 Australian Capital Territory …, GB.ENG England …).
//
// regionAnchors checks the codes against the cities file when the table is
// generated, so a wrong row fails generation instead of misplacing a city.
var regionNames = map[string]map[string]string{
	"US": {
		"AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas",
		"CA": "California", "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware",
		"DC": "District of Columbia", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii",
		"ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas",
		"KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
		"MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi",
		"MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
		"NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
		"NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
		"OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina",
		"SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah",
		"VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia",
		"WI": "Wisconsin", "WY": "Wyoming",
	},
	"CA": {
		"01": "Alberta", "02": "British Columbia", "03": "Manitoba", "04": "New Brunswick",
		"05": "Newfoundland and Labrador", "07": "Nova Scotia", "08": "Ontario",
		"09": "Prince Edward Island", "10": "Quebec", "11": "Saskatchewan", "12": "Yukon",
		"13": "Northwest Territories", "14": "Nunavut",
	},
	"AU": {
		"01": "Australian Capital Territory", "02": "New South Wales", "03": "Northern Territory",
		"04": "Queensland", "05": "South Australia", "06": "Tasmania", "07": "Victoria",
		"08": "Western Australia",
	},
	"GB": {"ENG": "England", "SCT": "Scotland", "WLS": "Wales", "NIR": "Northern Ireland"},
}

// regionAnchors are cities whose admin1 code must be the one given: a
// check of the region tables above against the data.
var regionAnchors = []struct{ city, cc, admin1 string }{
	{"Honolulu", "US", "HI"}, {"Indianapolis", "US", "IN"}, {"Los Angeles", "US", "CA"},
	{"Fargo", "US", "ND"}, {"Louisville", "US", "KY"}, {"Seattle", "US", "WA"},
	{"Calgary", "CA", "01"}, {"Vancouver", "CA", "02"}, {"Winnipeg", "CA", "03"},
	{"Moncton", "CA", "04"}, {"St. John's", "CA", "05"}, {"Halifax", "CA", "07"},
	{"Toronto", "CA", "08"}, {"Charlottetown", "CA", "09"}, {"Montréal", "CA", "10"},
	{"Regina", "CA", "11"}, {"Whitehorse", "CA", "12"}, {"Yellowknife", "CA", "13"},
	{"Canberra", "AU", "01"}, {"Sydney", "AU", "02"}, {"Darwin", "AU", "03"},
	{"Brisbane", "AU", "04"}, {"Adelaide", "AU", "05"}, {"Hobart", "AU", "06"},
	{"Melbourne", "AU", "07"}, {"Perth", "AU", "08"},
	{"London", "GB", "ENG"}, {"Glasgow", "GB", "SCT"}, {"Cardiff", "GB", "WLS"}, {"Belfast", "GB", "NIR"},
}

// aliasTarget says what an alias means: a country by ISO code, a city by
// its exact GeoNames name in a country, or a region by name.
type aliasTarget struct {
	country string // ISO code
	city    string // GeoNames name, with country
	region  string // region name, with country
}

// aliases are the common short or informal names GeoNames does not carry,
// and the few places where its population rule would surprise a reader
// ("New York" is the city, not the larger state). Each is documented in
// docs/time-zones.md ("The gazetteer").
var aliases = map[string]aliasTarget{
	"LA":                       {city: "Los Angeles", country: "US"},
	"L.A.":                     {city: "Los Angeles", country: "US"},
	"NYC":                      {city: "New York City", country: "US"},
	"NY":                       {city: "New York City", country: "US"},
	"New York":                 {city: "New York City", country: "US"},
	"New York State":           {region: "New York", country: "US"},
	"Washington State":         {region: "Washington", country: "US"},
	"Washington DC":            {city: "Washington", country: "US"},
	"DC":                       {city: "Washington", country: "US"},
	"SF":                       {city: "San Francisco", country: "US"},
	"Vegas":                    {city: "Las Vegas", country: "US"},
	"Philly":                   {city: "Philadelphia", country: "US"},
	"HK":                       {city: "Hong Kong", country: "HK"},
	"UK":                       {country: "GB"},
	"U.K.":                     {country: "GB"},
	"Britain":                  {country: "GB"},
	"Great Britain":            {country: "GB"},
	"US":                       {country: "US"},
	"U.S.":                     {country: "US"},
	"USA":                      {country: "US"},
	"U.S.A.":                   {country: "US"},
	"America":                  {country: "US"},
	"United States of America": {country: "US"},
	"Holland":                  {country: "NL"},
	"The Netherlands":          {country: "NL"},
	"UAE":                      {country: "AE"},
	"Emirates":                 {country: "AE"},
	"Korea":                    {country: "KR"},
	"Republic of Korea":        {country: "KR"},
	"Czech Republic":           {country: "CZ"},
	"Côte d'Ivoire":            {country: "CI"},
	"Burma":                    {country: "MM"},
	"North Macedonia":          {country: "MK"},
	"Vatican City":             {country: "VA"},
	"Palestine":                {country: "PS"},
	"Russian Federation":       {country: "RU"},
	"East Timor":               {country: "TL"},
	"Cape Verde":               {country: "CV"},
	"Swaziland":                {country: "SZ"},
	"Persia":                   {country: "IR"},
}

// capsOnlyAliases are aliases that Scan accepts only in capitals: in
// running text "us" and "la" are ordinary words.
var capsOnlyAliases = map[string]bool{
	"LA": true, "NYC": true, "NY": true, "DC": true, "SF": true, "HK": true, "UK": true,
	"US": true, "USA": true, "UAE": true,
}

// neverScanned are names Scan never reports as places: the calendar and
// clock words a time query is full of, some of which are also towns
// (March, England).
var neverScanned = map[string]bool{
	"january": true, "february": true, "march": true, "april": true, "may": true,
	"june": true, "july": true, "august": true, "september": true, "october": true,
	"november": true, "december": true, "monday": true, "tuesday": true,
	"wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true,
	"today": true, "tomorrow": true, "tonight": true, "now": true, "noon": true, "midnight": true,
}
