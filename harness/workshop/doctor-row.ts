// What doctor's judgements produce: a row of the table, and a backend it would choose. Apart from
// doctor.ts so that doctor-ministack.ts, which doctor.ts calls, needs nothing back from it.

export interface DoctorRow {
  check: string;
  /** null: does not apply here (an image check without Docker). */
  ok: boolean | null;
  found: string;
  next: string;
}

export interface Choice {
  backend: "endpoint" | "testcontainers" | "ministack" | "none";
  why: string;
}
