// SPDX-License-Identifier: MIT
// The families of integrators. Every coefficient table names its family
// (`static constexpr IntegratorFamily family`), and code that runs a table dispatches on it,
// never on the shape of the table: an implicit Runge–Kutta tableau has the members of an
// explicit one, but needs another stepper.
#pragma once

namespace orrery {

enum class IntegratorFamily {
  explicit_runge_kutta,  // integrate/runge_kutta/
  splitting,             // integrate/splitting/: symplectic drift/kick sequences
  multistep,             // integrate/multistep/: Adams–Bashforth with a one-step starter
  block_steps,           // integrate/block_steps/: leapfrog with a power-of-two step per body
};

// Whether a table has a register stepper (the ensemble's small systems, the parity tests): all
// but those that say `static constexpr bool register_stepper = false`.
template <class Table>
inline constexpr bool has_register_stepper = [] {
  if constexpr (requires { Table::register_stepper; })
    return static_cast<bool>(Table::register_stepper);
  else
    return true;
}();

}  // namespace orrery
