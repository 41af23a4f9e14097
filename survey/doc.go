// Package survey runs user satisfaction studies the way the GEAR paper did
// (GEAR, arXiv:2307.08775, Appendix G): participants use the plain chatbot for a
// baseline phase, then gear, rating answers as they go, and finally answer
// the questionnaire of Table 12.
//
// It holds the questionnaire as data (questionnaire.go) with the plain
// functions that validate answers and map them to and from form fields
// (answers.go); the study protocol — participant id, phase, the mode a
// phase defaults to (study.go); saving and resuming a response
// (session.go); the huh form that is a thin layer over all of that
// (form.go, its questions in form_questions.go); the report's figures over one or many histories (report.go,
// stats.go); and the labels a rated history gives grounding (labels.go).
//
// The package reads and writes the history only through package store.
package survey
