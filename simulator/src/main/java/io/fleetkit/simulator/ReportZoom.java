package io.fleetkit.simulator;

/**
 * The HTML report's time zoom: dragging a mouse across a chart's plot zooms every chart to that span of the run, so
 * that, say, the first hours of a day in which the autoscaler made hundreds of decisions fill the charts' width;
 * double-clicking a chart, or the "Whole run" button that stays at the top of the window while zoomed, shows the whole
 * run again. A click on an event's time in the event table, or on a moment the summary names ({@link ReportSummary}),
 * zooms to a twelfth of the run about it (two hours of a day, at least 6 seconds), marks that time with a blue line on
 * every chart and brings the charts into view.
 *
 * <p>What a chart draws against time (its lines, the fault and scaling marks, the readout's guide) sits in a nested
 * SVG over the plot's columns ({@link #openPlot}); zooming sets that view's {@code viewBox} to the span dragged
 * (stretched to the plot's width, strokes kept as thick as before), which also clips what lies outside, and labels
 * the time axis for the new span at whole steps (1, 2, 5, 10, 15 or 30 seconds or minutes, 1, 2, 3, 4, 6 or 12
 * hours, days: the first that gives at most six intervals). Each chart's y axis is fitted to the lines it draws in
 * that span ({@link #Y_AXIS}): a quiet stretch of a run whose line peaked elsewhere no longer reads flat; picking
 * lines from a crowded chart's list ({@link ReportSeriesPicker}) fits it again. A drag under 4 pixels wide is
 * a click, and one under 6 seconds of the run zooms nothing. Touch and pen keep their readout ({@link ReportReadout})
 * rather than zoom. From the keyboard, on a chart that has the focus, {@code +} halves the span shown (about the
 * readout's time while it shows one, else about the middle), {@code -} doubles it and {@code 0} shows the whole run.
 * Stateless; thread-safe.
 */
final class ReportZoom {
  private ReportZoom() {}

  /**
   * The code that fits a zoomed chart's y axis to what it shows: {@code yfit(p, k, a, b)} takes the highest value of
   * the lines drawn in plot {@code p} (chart {@code k}) between columns {@code a} and {@code b} (with the samples just
   * outside, whose segments cross into the span) and, when an axis chosen as {@link HtmlReport.Axis} chooses it (the
   * steps 1, 2, 2.5 and 5 × 10^k; whole ones for whole numbers) tops out lower than the page's, stretches the lines'
   * group upwards to it ({@code YB}, the plot's bottom row, stays put) and writes the gridlines and their labels for
   * it; {@code a == null}, or nothing lower, restores the page's axis.
   */
  private static final String Y_AXIS = ""
      + "var yfirst=[];Array.prototype.forEach.call(plots,function(p){yfirst.push(Array.prototype.map.call("
      + "p.parentNode.querySelectorAll('line.ygrid,text.ylabel'),function(e){return e.cloneNode(true);}));});\n"
      + "function prec(v){return Number(v.toPrecision(10));}\n"
      + "function axisOf(max,whole){var v=max>0?max:1,best=null;"
      + "for(var e=Math.floor(Math.log10(v/5));e<=Math.floor(Math.log10(v))+1;e++){[1,2,2.5,5].forEach(function(m){"
      + "var step=prec(m*Math.pow(10,e));if(whole&&step!==Math.round(step)){return;}var n=Math.ceil(v/step-1e-9);"
      + "if(n<1||n>5){return;}var top=prec(n*step);if(!best||top<best.top-1e-9*v||"
      + "(Math.abs(top-best.top)<=1e-9*v&&step<best.step)){best={step:step,n:n,top:top};}});}return best;}\n"
      + "function ynum(v){return v===Math.round(v)?String(v):v.toFixed(2);}\n"
      + "function regrid(p,k,ax){var svg=p.parentNode,old=svg.querySelectorAll('line.ygrid,text.ylabel'),"
      + "at=old[old.length-1].nextSibling,made=[];"
      + "if(ax===null){made=yfirst[k].map(function(e){return e.cloneNode(true);});}else{"
      + "var gl=yfirst[k][0],tl=yfirst[k][1];for(var g=0;g<=ax.n;g++){var y=YB-(YB-YT)*g/ax.n,"
      + "l=gl.cloneNode(false),t=tl.cloneNode(false);l.setAttribute('y1',String(y));l.setAttribute('y2',String(y));"
      + "t.setAttribute('y',String(y+4));t.textContent=ynum(prec(g*ax.step));made.push(l,t);}}"
      + "Array.prototype.forEach.call(old,function(e){e.remove();});"
      + "made.forEach(function(e){svg.insertBefore(e,at);});}\n"
      + "function yfit(p,k,a,b){var g=p.querySelector('g.lines'),top=Number(g.getAttribute('data-top')),max=-1;"
      + "if(a!==null){Array.prototype.forEach.call(g.querySelectorAll('polyline.series:not(.off)'),function(l){"
      // each line's columns and values parsed once (a day's line is drawn through thousands of samples)
      + "if(!l.fkY){l.fkY={x:l.getAttribute('points').split(' ').map(parseFloat),"
      + "v:l.getAttribute('data-v').split(' ').map(Number)};}var xs=l.fkY.x,vs=l.fkY.v;"
      + "for(var j=0;j<xs.length;j++){if((xs[j]>=a&&xs[j]<=b)||(xs[j]<a&&j+1<xs.length&&xs[j+1]>a)||"
      + "(xs[j]>b&&j>0&&xs[j-1]<b)){max=Math.max(max,vs[j]);}}});}"
      + "var ax=max<0?null:axisOf(max,g.getAttribute('data-whole')==='true');"
      + "if(ax!==null&&ax.top>=top){ax=null;}if(ax===null){g.removeAttribute('transform');}"
      + "else{var s=top/ax.top;g.setAttribute('transform','matrix(1 0 0 '+s+' 0 '+(YB*(1-s))+')');}"
      + "regrid(p,k,ax);}\n";

  /**
   * Opens a chart's view of its plot: columns {@code left} to {@code left + width} of a chart {@code height} high, in
   * the chart's own units.
   */
  static void openPlot(StringBuilder sb, int left, int width, int height) {
    sb.append("<svg class=\"plot\" x=\"").append(left).append("\" y=\"0\" width=\"").append(width)
        .append("\" height=\"").append(height).append("\" viewBox=\"").append(left).append(" 0 ").append(width)
        .append(' ').append(height).append("\" preserveAspectRatio=\"none\">\n");
  }

  /**
   * Closes the view with the span being dragged, hidden until a drag, and the mark of a time zoomed to from the event
   * table, hidden until then: the plot's rows {@code top} on, {@code height}.
   */
  static void closePlot(StringBuilder sb, int top, int height) {
    sb.append("<rect class=\"drag\" x=\"0\" width=\"0\" y=\"").append(top).append("\" height=\"").append(height)
        .append("\" fill=\"#1f77b4\" fill-opacity=\"0.15\" visibility=\"hidden\"/>\n")
        .append("<line class=\"at\" x1=\"0\" x2=\"0\" y1=\"").append(top).append("\" y2=\"").append(top + height)
        .append("\" stroke=\"#1f77b4\" stroke-width=\"1.5\" stroke-opacity=\"0.6\" visibility=\"hidden\"/>\n")
        .append("</svg>\n");
  }

  /**
   * Opens the group of a chart's lines, drawn on an axis from 0 to {@code top}; {@code whole} when every value is a
   * whole number (the axis's steps then are too).
   */
  static void openLines(StringBuilder sb, double top, boolean whole) {
    sb.append("<g class=\"lines\" data-top=\"").append(top).append("\" data-whole=\"").append(whole).append("\">\n");
  }

  /** The bar with the "Whole run" button and the span shown, hidden while the charts show the whole run. */
  static void bar(StringBuilder sb) {
    sb.append("<p id=\"zoom\" hidden><button id=\"zoom-out\" type=\"button\">Whole run</button> ")
        .append("<span id=\"zoom-span\"></span></p>\n");
  }

  /** The zoom's style rules. */
  static void style(StringBuilder sb) {
    sb.append("svg.plot *{vector-effect:non-scaling-stroke}#zoom{position:sticky;top:0;z-index:2;background:#fff;")
        .append("margin:0;padding:4px 0}figure.chart > svg{cursor:crosshair;user-select:none}")
        .append("figure.chart > svg:focus{outline:2px solid #1f77b4;outline-offset:1px}")
        .append("#event-table tbody td:first-child{cursor:zoom-in;color:#1f77b4}\n");
  }

  /**
   * The zoom's code: each chart's plot spans columns {@code left} to {@code left + width}, which stand for
   * {@code spanMillis} of simulated time. Times are written as the report writes them ({@link HtmlReport#clock}:
   * {@code H:MM}, or {@code H:MM:SS} off the minute); the whole run's labels are the page's own.
   */
  static void script(StringBuilder sb, int left, int width, long spanMillis, int top, int bottom) {
    sb.append("var ZL=").append(left).append(",ZW=").append(width).append(",ZSPAN=").append(spanMillis)
        .append(",YT=").append(top).append(",YB=").append(bottom).append(";\n")
        .append("var plots=document.querySelectorAll('figure.chart > svg > svg.plot'),")
        .append("zbar=document.getElementById('zoom'),zspan=document.getElementById('zoom-span');\n")
        // label steps in seconds: the first that gives at most six intervals, doubled beyond a day
        .append("var STEPS=[1,2,5,10,15,30,60,120,300,600,900,1800,3600,7200,10800,14400,21600,43200,86400];\n")
        .append("function two(n){return (n<10?'0':'')+n;}\n")
        .append("function clock(s){var hm=Math.floor(s/3600)+':'+two(Math.floor(s/60)%60);")
        .append("return s%60===0?hm:hm+':'+two(s%60);}\n")
        .append("function seconds(x){return (x-ZL)/ZW*ZSPAN/1000;}\n")
        .append("function whole(a,b){return a<=ZL&&b>=ZL+ZW;}\n")
        .append("var first=[];Array.prototype.forEach.call(plots,function(p){")
        .append("first.push(Array.prototype.map.call(p.parentNode.querySelectorAll('text.xlabel'),function(l){")
        .append("return [l.getAttribute('x'),l.textContent];}));});\n")
        .append("function relabel(p,labels){var old=p.parentNode.querySelectorAll('text.xlabel'),")
        .append("model=old[0],at=old[old.length-1].nextSibling;")
        .append("Array.prototype.forEach.call(old,function(l){l.remove();});labels.forEach(function(v){")
        .append("var l=model.cloneNode(false);l.setAttribute('x',v[0]);l.textContent=v[1];")
        .append("p.parentNode.insertBefore(l,at);});}\n")
        .append("function ticks(a,b){var s0=seconds(a),s1=seconds(b),step=0;for(var i=0;i<STEPS.length&&!step;i++){")
        .append("if((s1-s0)/STEPS[i]<=6){step=STEPS[i];}}if(!step){step=STEPS[STEPS.length-1];")
        .append("while((s1-s0)/step>6){step*=2;}}var out=[];")
        .append("for(var t=Math.ceil(s0/step-1e-9)*step;t<=s1+1e-9;t+=step){")
        .append("out.push([String(Math.round((ZL+(t*1000/ZSPAN*ZW-(a-ZL))*ZW/(b-a))*10)/10),clock(t)]);}return out;}\n")
        .append(Y_AXIS)
        .append("function zoom(a,b){var all=whole(a,b);if(all){a=ZL;b=ZL+ZW;}var labels=all?null:ticks(a,b);")
        .append("Array.prototype.forEach.call(plots,function(p,k){var h=p.viewBox.baseVal.height;")
        .append("p.setAttribute('viewBox',a+' 0 '+(b-a)+' '+h);relabel(p,all?first[k]:labels);")
        .append("yfit(p,k,all?null:a,b);});")
        // a readout shown before the zoom reads a time no longer where it was
        .append("Array.prototype.forEach.call(document.querySelectorAll('figure.chart .readout'),function(r){")
        .append("r.hidden=true;});Array.prototype.forEach.call(document.querySelectorAll('svg.plot line.guide'),")
        .append("function(g){g.setAttribute('visibility','hidden');});")
        .append("zbar.hidden=all;zspan.textContent=all?'':'Showing '+clock(Math.round(seconds(a)))+' to '+")
        .append("clock(Math.round(seconds(b)));if(all){mark(null);}}\n")
        .append("function mark(x){Array.prototype.forEach.call(document.querySelectorAll('svg.plot line.at'),")
        .append("function(l){if(x===null){l.setAttribute('visibility','hidden');return;}")
        .append("l.setAttribute('x1',String(x));")
        .append("l.setAttribute('x2',String(x));l.setAttribute('visibility','visible');});}\n")
        // an event's time from the table: a twelfth of the run about it (at least 6 s), marked, the charts in view
        .append("function zoomAt(t){var x=ZL+t*1000/ZSPAN*ZW,")
        .append("w=Math.min(ZW,Math.max(ZW/12,6000/ZSPAN*ZW)),a=Math.max(ZL,Math.min(ZL+ZW-w,x-w/2));zoom(a,a+w);")
        .append("mark(x);var c=document.getElementById('charts');if(c){c.scrollIntoView();}}\n")
        .append("document.addEventListener('fleetkit:zoom-at',function(e){zoomAt(e.detail);});\n")
        // the summary's moments: links to the charts, zoomed to the moment
        .append("document.addEventListener('click',function(e){var l=e.target.closest?e.target.closest('a.at'):null;")
        .append("if(l){e.preventDefault();zoomAt(Number(l.getAttribute('data-s')));}});\n")
        .append("document.getElementById('zoom-out').addEventListener('click',function(){zoom(ZL,ZL+ZW);});\n")
        // a line drawn or hidden from a chart's list while zoomed: the y axes fitted again to the lines drawn
        .append("document.addEventListener('fleetkit:lines',function(){if(zbar.hidden){return;}")
        .append("Array.prototype.forEach.call(plots,function(p,k){var vb=p.viewBox.baseVal;")
        .append("yfit(p,k,vb.x,vb.x+vb.width);});});\n")
        .append("var drag=null;\n")
        .append("function at(d,e){var m=d.svg.getScreenCTM(),x=Math.max(ZL,Math.min(ZL+ZW,(e.clientX-m.e)/m.a)),")
        .append("vb=d.plot.viewBox.baseVal;return vb.x+(x-ZL)*vb.width/ZW;}\n")
        .append("function span(d,x){d.rect.setAttribute('x',String(Math.min(d.x0,x)));")
        .append("d.rect.setAttribute('width',String(Math.abs(x-d.x0)));}\n")
        .append("Array.prototype.forEach.call(plots,function(p){var svg=p.parentNode;\n")
        .append("svg.addEventListener('pointerdown',function(e){if(e.pointerType!=='mouse'||e.button!==0){return;}")
        .append("drag={svg:svg,plot:p,rect:p.querySelector('rect.drag')};drag.x0=at(drag,e);span(drag,drag.x0);")
        .append("drag.rect.setAttribute('visibility','visible');e.preventDefault();});\n")
        .append("svg.addEventListener('dblclick',function(){zoom(ZL,ZL+ZW);});\n")
        // from the keyboard: + halves the span shown, about the readout's time when it shows one, - doubles it, 0
        // shows the whole run
        .append("svg.addEventListener('keydown',function(e){var vb=p.viewBox.baseVal,g=p.querySelector('line.guide'),")
        .append("c=g&&g.getAttribute('visibility')==='visible'?Number(g.getAttribute('x1')):vb.x+vb.width/2,w;")
        .append("if(e.key==='+'||e.key==='='){w=vb.width/2;}else if(e.key==='-'){w=vb.width*2;}")
        .append("else if(e.key==='0'){w=ZW;}else{return;}e.preventDefault();w=Math.min(ZW,w);")
        .append("if(seconds(ZL+w)<6){return;}var a=Math.max(ZL,Math.min(ZL+ZW-w,c-w/2));zoom(a,a+w);});});\n")
        .append("document.addEventListener('pointermove',function(e){if(drag){span(drag,at(drag,e));}});\n")
        // a drag narrower than 4 pixels is a click, and a span under 6 s of the run is not zoomed into
        .append("document.addEventListener('pointerup',function(e){if(!drag){return;}var d=drag,x=at(d,e),")
        .append("a=Math.min(d.x0,x),b=Math.max(d.x0,x),vb=d.plot.viewBox.baseVal;drag=null;")
        .append("d.rect.setAttribute('visibility','hidden');if((b-a)*ZW/vb.width>=4&&seconds(b)-seconds(a)>=6){")
        .append("zoom(a,b);}});\n");
  }

}
