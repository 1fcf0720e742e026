V="0.5*(x^2+y^2+z^2) + 0.3*x*y*z + 0.1*z^4"
printf "x,y,z,px,py,pz\n0.1,0.2,0.3,0.05,0,0\n0.3,-0.1,0.2,0,0.1,0\n" > /tmp/s.csv
which h5dump h5ls || true
for n in 1 3 4 5 10 100 1000; do for b in cpu cuda; do
  build-gpu/bin/orrery ensemble --problem polynomial --potential "$V" --starts /tmp/s.csv --integrator ab4,ab2 --steps $n --samples 1 --backend $b --out /tmp/e-$b-$n.h5 --overwrite > /tmp/o-$b-$n.txt 2>&1
  echo "== $n $b"; grep -vE "^\s*$" /tmp/o-$b-$n.txt | head -6
done
if command -v h5dump >/dev/null; then h5ls -r /tmp/e-cpu-$n.h5 | head -20; for b in cpu cuda; do h5dump -d /runs/ab4-fp64/final_state /tmp/e-$b-$n.h5 2>&1 | grep -A3 DATA | head -4; done; fi
done
