// SPDX-License-Identifier: MIT
// A one-off measurement behind docs/gravity-tree-cuda.md ("Speed"): interactions per target and the
// error of |a| on a Plummer sphere of N bodies for the CPU tree's group walk with groups of 64, 32
// and 16 (box test; mode=1 a centre test, not used) and for the textbook walk of one target at a
// time, against a double direct sum on 400 targets. Not part of the build:
//   g++ -O2 -march=native -std=c++20 -I include -I src bench/tree_walk_counts.cpp \
//       src/nbody/tree/cpu/octree.cpp src/core/error.cpp -lquadmath -lfmt -o tree_walk_counts
//   ./tree_walk_counts 1000000
#include <cmath>
#include <cstdio>
#include <random>
#include <algorithm>
#include <vector>
#include "nbody/tree/cpu/octree.hpp"
#include "nbody/tree/cell_opening.hpp"
using namespace orrery;
using namespace orrery::cpu;
using R = float;
struct Acc { double ax=0, ay=0, az=0; };
static void add_cell(const OctreeNode<R>& n, const Quadrupole<R>& q, double x, double y, double z, Acc& a, bool quad) {
  double dx=n.cx-x, dy=n.cy-y, dz=n.cz-z; double r2=dx*dx+dy*dy+dz*dz; double ir=1/std::sqrt(r2);
  double phi=0; double ax=0,ay=0,az=0;
  if (quad) { Quadrupole<double> qd{q.xx,q.xy,q.xz,q.yy,q.yz,q.zz}; accumulate_cell<double,double>(dx,dy,dz,ir,(double)n.mass,qd,ax,ay,az,phi);}
  else accumulate_monopole<double,double>(dx,dy,dz,ir,(double)n.mass,ax,ay,az,phi);
  a.ax+=ax; a.ay+=ay; a.az+=az;
}
int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? atol(argv[1]) : 1000000;
  std::mt19937_64 rng(1); std::uniform_real_distribution<double> U(0,1);
  std::vector<R> x(n),y(n),z(n),m(n,1.0/n),h(n,0);
  double a = 3*M_PI/16;
  for (std::size_t i=0;i<n;++i){ double u; do u=U(rng); while(u<1e-10||u>0.999);
    double r=a/std::sqrt(std::pow(u,-2.0/3)-1); if(r>100) r=100; double ct=2*U(rng)-1, ph=2*M_PI*U(rng), st=std::sqrt(1-ct*ct);
    x[i]=r*st*std::cos(ph); y[i]=r*st*std::sin(ph); z[i]=r*ct; }
  Octree<R> t; t.build(x.data(),y.data(),z.data(),m.data(),h.data(),n,16);
  const auto& nodes=t.nodes(); const auto& qs=t.quadrupoles(); const auto& b=t.bodies();
  // reference for sample targets (sorted index)
  const int S=400; std::vector<std::uint32_t> samp(S); for(int s=0;s<S;++s) samp[s]=(std::uint32_t)((double)s/S*n);
  std::vector<Acc> ref(S);
  for(int s=0;s<S;++s){ std::uint32_t i=samp[s]; double X=b.x[i],Y=b.y[i],Z=b.z[i];
    for(std::size_t j=0;j<n;++j){ if(j==i) continue; double dx=b.x[j]-X,dy=b.y[j]-Y,dz=b.z[j]-Z; double r2=dx*dx+dy*dy+dz*dz; double ir=1/std::sqrt(r2); double f=b.mass[j]*ir*ir*ir; ref[s].ax+=f*dx;ref[s].ay+=f*dy;ref[s].az+=f*dz;} }
  auto report=[&](const char* name, std::vector<Acc>& got, double cells, double bodies){
    std::vector<double> e(S); for(int s=0;s<S;++s){ double dx=got[s].ax-ref[s].ax,dy=got[s].ay-ref[s].ay,dz=got[s].az-ref[s].az; e[s]=std::sqrt(dx*dx+dy*dy+dz*dz)/std::sqrt(ref[s].ax*ref[s].ax+ref[s].ay*ref[s].ay+ref[s].az*ref[s].az);} std::sort(e.begin(),e.end());
    printf("%-28s cells/target %7.0f bodies/target %7.0f  median %.2e p99 %.2e\n",name,cells,bodies,e[S/2],e[S*99/100]); };
  double theta=0.5, th2=theta*theta;
  // group-box MAC with group sizes; scale: option "sizefac" multiplies size (bmax variant) 
  for (int G : {64, 32, 16}) for (int mode : {0,1}) {
    auto groups=t.groups(G); double cells=0,bodies=0; std::vector<Acc> got(S);
    for(auto g: groups){ const auto& gn=nodes[g]; R lo[3]={b.x[gn.begin],b.y[gn.begin],b.z[gn.begin]},hi[3]={lo[0],lo[1],lo[2]};
      for(auto s=gn.begin;s<gn.begin+gn.count;++s){R p[3]={b.x[s],b.y[s],b.z[s]}; for(int a2=0;a2<3;++a2){lo[a2]=std::min(lo[a2],p[a2]);hi[a2]=std::max(hi[a2],p[a2]);}}
      R c[3]={(lo[0]+hi[0])/2,(lo[1]+hi[1])/2,(lo[2]+hi[2])/2}; R rg=std::sqrt((hi[0]-lo[0])*(hi[0]-lo[0])+(hi[1]-lo[1])*(hi[1]-lo[1])+(hi[2]-lo[2])*(hi[2]-lo[2]))/2;
      std::vector<std::uint32_t> cl, bl;
      for(std::uint32_t i=0;i<nodes.size();){ const auto& nd=nodes[i]; bool holds= i<=g && g<nd.next;
        if(!holds){ bool take;
          if(mode==0){ R d2=distance2_to_box(lo,hi,nd.cx,nd.cy,nd.cz); take=taken_whole(nd.size*nd.size,(R)th2,d2);}
          else { R dx=nd.cx-c[0],dy=nd.cy-c[1],dz=nd.cz-c[2]; R d=std::sqrt(dx*dx+dy*dy+dz*dz); take = nd.size < theta*d - 0.0f && d>rg && nd.size < theta*(d - 0.5f*rg); }
          if(take){cl.push_back(i); i=nd.next; continue;} }
        if(nd.leaf||i==g){ for(auto s=nd.begin;s<nd.begin+nd.count;++s) bl.push_back(s); i=nd.next;} else ++i; }
      cells+=double(cl.size())*gn.count; bodies+=double(bl.size())*gn.count;
      for(int s=0;s<S;++s){ std::uint32_t ti=samp[s]; if(ti<gn.begin||ti>=gn.begin+gn.count) continue; double X=b.x[ti],Y=b.y[ti],Z=b.z[ti];
        for(auto ci:cl) add_cell(nodes[ci],qs[ci],X,Y,Z,got[s],true);
        for(auto j:bl){ if(j==ti) continue; double dx=b.x[j]-X,dy=b.y[j]-Y,dz=b.z[j]-Z; double r2=dx*dx+dy*dy+dz*dz; double ir=1/std::sqrt(r2); double f=b.mass[j]*ir*ir*ir; got[s].ax+=f*dx;got[s].ay+=f*dy;got[s].az+=f*dz;} } }
    char name[64]; snprintf(name,64,"G=%d mode=%d",G,mode); report(name,got,cells/n,bodies/n); }
  // per-particle BH on sample only
  { std::vector<Acc> got(S); double cells=0,bodies=0;
    for(int s=0;s<S;++s){ std::uint32_t ti=samp[s]; double X=b.x[ti],Y=b.y[ti],Z=b.z[ti];
      for(std::uint32_t i=0;i<nodes.size();){ const auto& nd=nodes[i]; bool holds= nd.begin<=ti && ti<nd.begin+nd.count;
        double dx=nd.cx-X,dy=nd.cy-Y,dz=nd.cz-Z; double d2=dx*dx+dy*dy+dz*dz;
        if(!holds && nd.size*nd.size < th2*d2){ add_cell(nd,qs[i],X,Y,Z,got[s],true); cells++; i=nd.next; continue;}
        if(nd.leaf){ for(auto j=nd.begin;j<nd.begin+nd.count;++j){ if(j==ti) continue; double ex=b.x[j]-X,ey=b.y[j]-Y,ez=b.z[j]-Z; double r2=ex*ex+ey*ey+ez*ez; double ir=1/std::sqrt(r2); double f=b.mass[j]*ir*ir*ir; got[s].ax+=f*ex;got[s].ay+=f*ey;got[s].az+=f*ez; bodies++;} i=nd.next;} else ++i; } }
    report("per-particle",got,cells/S,bodies/S); }
}
